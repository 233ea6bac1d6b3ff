import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_KINDS, type RunKindName } from '../../../client/run-kinds';
import { runInputJsonSchema, runResultJsonSchema } from '../../../client/run-schemas';

const KINDS = Object.keys(RUN_KINDS) as RunKindName[];
const published = (kind: string, suffix: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'schemas', `${kind}.${suffix}.json`), 'utf8'));

test.each(KINDS)('the published JSON Schemas of %s (input and result) match the code', (kind) => {
  // regenerate with: npx tsx scripts/write-schemas.ts
  expect(published(kind, 'input')).toEqual(runInputJsonSchema(kind));
  expect(published(kind, 'result')).toEqual(runResultJsonSchema(kind));
});

test('the airetry schema lists the check catalogue and the retry configuration', () => {
  const text = JSON.stringify(runInputJsonSchema('airetry'));
  for (const kind of ['regex', 'maxWords', 'oneOf', 'equals', 'contains', 'startsWith', 'lowercase', 'jsonSchema', 'llmJudge']) {
    expect(text).toContain(`"const":"${kind}"`);
  }
  expect(text).toContain('"maxRetries"');
});

/**
 * Every field grove defines carries a description; inside the standard shapes it passes through
 * (OpenAI chat messages and parameters, JSON Schemas, the compact tree tuples) the container's
 * description says what they are.
 */
const OPAQUE = new Set(['messages', 'message', 'conversation', 'apiKwargs', 'schema', 'nodes', 'options']);

function undescribed(schema: Record<string, any>, path: string, out: string[]): string[] {
  for (const [key, value] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    if (!value.description) out.push(`${path}.${key}`);
    if (!OPAQUE.has(key)) undescribed(value, `${path}.${key}`, out);
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) undescribed(branch, path, out);
  if (schema.items && typeof schema.items === 'object') undescribed(schema.items, `${path}[]`, out);
  return out;
}

test.each(KINDS)('every field of the %s input and result schemas is described, defaults included', (kind) => {
  const input = runInputJsonSchema(kind);
  expect(undescribed(input, kind, [])).toEqual([]);
  expect(undescribed(runResultJsonSchema(kind), `${kind} result`, [])).toEqual([]);
  expect(String(input.description)).toContain('exactly ONE argument');
});

test('defaults are published: a service in another language sees what it may omit', () => {
  const agent = runInputJsonSchema('agent') as { properties: Record<string, { default?: unknown }> };
  expect(agent.properties.bFactor.default).toBe(3);
  expect(agent.properties.evaluator.default).toEqual({ name: 'llm' });
  const airetry = runInputJsonSchema('airetry') as { properties: { config: { properties: Record<string, { default?: unknown }> } } };
  expect(airetry.properties.config.properties.maxRetries.default).toBe(10);
});
