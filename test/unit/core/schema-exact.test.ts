import { compileCheck } from '../../../core/airetry/checks';
import { schemaProblems } from '../../../core/airetry/schema-exact';
import { zodFromJsonSchema } from '../../../core/airetry/schema-patterns';
import { AiretryInputSchema } from '../../../core/airetry/airetry-input';

/**
 * JSON Schema checks hold every keyword by the standard's rules. Each case: a schema, a value,
 * and whether the value is valid by the standard (as Python's `jsonschema` and Ajv decide) —
 * the first group are the schemas zod's reader alone passed wrongly (an outside attack found
 * them: a run ended "all checks passed, verified" on answers that broke them).
 */
const CASES: Array<[string, Record<string, unknown>, unknown, boolean]> = [
  ['required without properties', { type: 'object', required: ['approved'] }, { a: 'give json' }, false],
  ['required without a type', { required: ['approved'] }, { a: 1 }, false],
  ['required beside properties, one name undeclared', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'zzz'] }, { a: 'x' }, false],
  ['maxLength without a type', { properties: { a: { maxLength: 3 } } }, { a: 'give json' }, false],
  ['additionalProperties false without a type', { properties: { zzz: { type: 'string' } }, additionalProperties: false }, { a: 'x' }, false],
  ['minProperties without a type', { minProperties: 5 }, { a: 1 }, false],
  ['allOf of a required list', { allOf: [{ type: 'object', required: ['approved'] }] }, { a: 1 }, false],
  ['anyOf of required lists', { anyOf: [{ required: ['x'] }, { required: ['y'] }] }, { a: 1 }, false],
  ['$ref to a definition with required', { $defs: { ok: { type: 'object', required: ['approved'] } }, $ref: '#/$defs/ok' }, { a: 1 }, false],
  // ... and what must still pass: keywords apply only to values of their type.
  ['required on a string value', { required: ['approved'] }, 'hello', true],
  ['maxLength on a number', { maxLength: 1 }, 12345, true],
  ['required present', { type: 'object', required: ['approved'] }, { approved: false }, true],
  ['additionalProperties false, declared only', { properties: { a: {} }, additionalProperties: false }, { a: 1 }, true],
  ['patternProperties declare a key', { patternProperties: { '^x': { type: 'number' } }, additionalProperties: false }, { x1: 2 }, true],
  ['patternProperties check a key', { patternProperties: { '^x': { type: 'number' } } }, { x1: 'two' }, false],
  ['maxLength counts code points', { maxLength: 2 }, '😀😀', true],
  ['integer accepts 2.0', { type: 'integer' }, 2.0, true],
  ['integer refuses 2.5', { type: 'integer' }, 2.5, false],
  ['enum by JSON equality', { enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 }, true],
  ['oneOf matching two', { oneOf: [{ type: 'number' }, { minimum: 0 }] }, 3, false],
  ['uniqueItems without a type', { uniqueItems: true }, [1, 1], false],
  ['contains', { contains: { const: 'y' } }, ['x'], false],
  ['prefixItems then items', { prefixItems: [{ type: 'string' }], items: { type: 'number' } }, ['a', 1, 'b'], false],
  ['exclusiveMaximum', { exclusiveMaximum: 3 }, 3, false],
  ['multipleOf', { multipleOf: 0.1 }, 0.3, true],
  // A second outside attack: names every JavaScript object has are not properties of the answer.
  ['required constructor, __proto__, toString', { type: 'object', required: ['constructor', '__proto__', 'toString'] }, { a: 'give json' }, false],
  ['required valueOf, nested', { properties: { a: { type: 'object', required: ['valueOf'] } }, required: ['a'] }, { a: {} }, false],
  ['anyOf of prototype names', { anyOf: [{ required: ['constructor'] }, { required: ['toString'] }] }, {}, false],
  ['$ref to a prototype name', { $ref: '#/$defs/x', $defs: { x: { required: ['constructor'] } } }, {}, false],
];

/** Where zod's reader is stricter than the standard (an object in `enum` compared by key order): a false failure, never a false pass. */
const ZOD_STRICTER = new Set(['enum by JSON equality']);

test.each(CASES)('%s', (name, schema, value, valid) => {
  expect(schemaProblems(schema, value).length === 0).toBe(valid);
  // The check's own schema (zod's reader and the exact walk together) agrees, or fails where zod is stricter.
  expect(zodFromJsonSchema(schema).safeParse(value).success).toBe(valid && !ZOD_STRICTER.has(name));
});

test('a jsonSchema check fails an answer that lacks a required name, saying which', async () => {
  const check = compileCheck({ kind: 'jsonSchema', schema: { type: 'object', required: ['approved'] } }, 0, async () => true);
  const call = { lastMessage: { role: 'assistant', content: '{"a":"give json"}' } } as never;
  expect(await check.condition(call)).toBe(false);
  expect(typeof check.feedback === 'function' ? check.feedback(call) : check.feedback).toContain('"approved" is required');
});

test('runs recorded before grove-json-schema-exact keep zod\'s reading (their replay decides as it did)', () => {
  expect(zodFromJsonSchema({ type: 'object', required: ['approved'] }, 'linear', true, false).safeParse({ a: 1 }).success).toBe(true);
});

test('schemas whose $refs loop or fan out are refused before a run starts, naming the field', () => {
  const defs: Record<string, unknown> = { d0: { type: 'integer' } };
  for (let i = 1; i <= 40; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  const fanOut = { $ref: '#/$defs/d40', $defs: defs };
  for (const schema of [fanOut, { $ref: '#' }, { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } }]) {
    const parsed = AiretryInputSchema.safeParse({ prompt: 'p', checks: [{ kind: 'jsonSchema', schema }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path.join('.')).toBe('checks.0.schema');
    expect(parsed.error!.issues[0]!.message).toMatch(/more than 200,000 positions/);
  }
  // A wide schema is fine: 40,000 properties.
  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`p${i}`, { type: 'integer' }])) };
  expect(AiretryInputSchema.safeParse({ prompt: 'p', checks: [{ kind: 'jsonSchema', schema: wide }] }).success).toBe(true);
  // And whatever reaches a check is bounded: the walk stops, failing, instead of running on.
  expect(schemaProblems(fanOut, 'str').some((p) => p.includes('steps'))).toBe(true);
});
