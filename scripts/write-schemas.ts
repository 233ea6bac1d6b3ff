/** Regenerates docs/schemas/<kind>.input.json from the zod schemas: `npx tsx scripts/write-schemas.ts`. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_KINDS, type RunKindName } from '../client/run-kinds';
import { runInputJsonSchema } from '../client/run-schemas';

for (const kind of Object.keys(RUN_KINDS) as RunKindName[]) {
  const file = join(__dirname, '..', 'docs', 'schemas', `${kind}.input.json`);
  writeFileSync(file, `${JSON.stringify(runInputJsonSchema(kind), null, 2)}\n`);
  console.log(`wrote ${file}`);
}
