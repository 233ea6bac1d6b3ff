/**
 * Regenerates docs/schemas/<kind>.input.json and <kind>.result.json from the zod schemas, and
 * docs/schemas/mcp-servers.json (a worker's MCP servers): `npx tsx scripts/write-schemas.ts`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_KINDS, type RunKindName } from '../client/run-kinds';
import { runInputJsonSchema, runResultJsonSchema } from '../client/run-schemas';
import { mcpServersJsonSchema } from '../activities/mcp/mcp-config';

for (const kind of Object.keys(RUN_KINDS) as RunKindName[]) {
  for (const [suffix, schema] of [['input', runInputJsonSchema(kind)], ['result', runResultJsonSchema(kind)]] as const) {
    const file = join(__dirname, '..', 'docs', 'schemas', `${kind}.${suffix}.json`);
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}

const mcp = join(__dirname, '..', 'docs', 'schemas', 'mcp-servers.json');
writeFileSync(mcp, `${JSON.stringify(mcpServersJsonSchema(), null, 2)}\n`);
console.log(`wrote ${mcp}`);
