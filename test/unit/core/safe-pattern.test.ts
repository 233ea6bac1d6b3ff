import { compilePattern, UnsupportedPatternError } from '../../../core/airetry/safe-pattern';
import { splitSchemaPatterns, zodFromJsonSchema } from '../../../core/airetry/schema-patterns';
import { CheckSpecSchema } from '../../../core/airetry/checks';

const catastrophic = `Echo: ${'a'.repeat(40)}b`;

test('a catastrophic pattern is matched in linear time (the native engine would run for minutes)', () => {
  const pattern = compilePattern('^Echo: (a+)+$');
  expect(pattern.test(catastrophic)).toBe(false);
  expect(pattern.test(`Echo: ${'a'.repeat(40)}`)).toBe(true);
  // A hundred thousand characters, one pass each.
  expect(compilePattern('(x+x+)+y').test('x'.repeat(100_000))).toBe(false);
});

test('JavaScript flags that matter to a test: i, m, s; test() finds a match anywhere', () => {
  expect(compilePattern('^yel', 'i').test('Yellow')).toBe(true);
  expect(compilePattern('^b$', 'm').test('a\nb\nc')).toBe(true);
  expect(compilePattern('a.b', 's').test('a\nb')).toBe(true);
  expect(compilePattern('a.b').test('a\nb')).toBe(false);
  expect(compilePattern('ell').test('yellow')).toBe(true);
});

test('what RE2 cannot do is rejected with the reason, and a regex check names the field', () => {
  expect(() => compilePattern('(a)\\1')).toThrow(UnsupportedPatternError);
  expect(() => compilePattern('foo(?=bar)')).toThrow(/no backreferences or lookaround\): invalid or unsupported Perl syntax: `\(\?=`/);
  const parsed = CheckSpecSchema.safeParse({ kind: 'regex', pattern: '(\\w)\\1' });
  expect(parsed.success).toBe(false);
  expect(parsed.error!.issues[0]).toMatchObject({ path: ['pattern'], message: expect.stringMatching(/^not a pattern grove can match in linear time/) });
});

test('JSON Schema patterns under properties, items and additionalProperties are checked in linear time', () => {
  const schema = {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^[a-z]+$' },
      tags: { type: 'array', items: { type: 'string', pattern: '^#' } },
      extra: { type: 'object', additionalProperties: { type: 'string', pattern: '^(a+)+$' } },
    },
  };
  const { schema: stripped, problems } = splitSchemaPatterns(schema);
  expect(JSON.stringify(stripped)).not.toContain('pattern');
  expect(problems({ id: 'abc', tags: ['#x'], extra: { k: 'aaa' } })).toEqual([]);
  expect(problems({ id: 'ABC', tags: ['#x', 'y'], extra: { k: `${'a'.repeat(40)}b` } })).toEqual([
    'id: does not match /^[a-z]+$/',
    'tags[1]: does not match /^#/',
    'extra.k: does not match /^(a+)+$/',
  ]);
  const zod = zodFromJsonSchema(schema);
  expect(zod.safeParse({ id: 'abc', tags: [], extra: {} }).success).toBe(true);
  const failed = zod.safeParse({ id: 'A1', tags: [], extra: {} });
  expect(failed.success).toBe(false);
  expect(failed.error!.issues[0].message).toBe('id: does not match /^[a-z]+$/');
});

test('a pattern grove cannot place is rejected where it stands', () => {
  expect(() => splitSchemaPatterns({ anyOf: [{ type: 'string', pattern: 'a' }, { type: 'number' }] })).toThrow(
    /a pattern at anyOf\[0\]\.pattern is under a combinator or patternProperties/,
  );
  const check = CheckSpecSchema.safeParse({ kind: 'jsonSchema', schema: { type: 'string', pattern: '(?<=a)b' } });
  expect(check.success).toBe(false);
  expect(check.error!.issues[0].message).toMatch(/^not a pattern grove can match in linear time/);
});
