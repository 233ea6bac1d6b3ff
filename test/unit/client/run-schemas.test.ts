import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_KINDS, type RunKindName } from '../../../client/run-kinds';
import { runInputJsonSchema } from '../../../client/run-schemas';

test.each(Object.keys(RUN_KINDS) as RunKindName[])('the published JSON Schema of %s input matches the code', (kind) => {
  const published = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'schemas', `${kind}.input.json`), 'utf8'));
  expect(published).toEqual(runInputJsonSchema(kind)); // regenerate with: npx tsx scripts/write-schemas.ts
});

test('the airetry schema lists the check catalogue and the retry configuration', () => {
  const text = JSON.stringify(runInputJsonSchema('airetry'));
  for (const kind of ['regex', 'maxWords', 'oneOf', 'equals', 'contains', 'startsWith', 'lowercase', 'jsonSchema', 'llmJudge']) {
    expect(text).toContain(`"const":"${kind}"`);
  }
  expect(text).toContain('"maxRetries"');
});
