import { z } from 'zod';
import { compilePattern, UnsupportedPatternError, type SafePattern } from './safe-pattern';
import { withArrayItems } from './schema-arrays';
import { schemaProblems } from './schema-exact';

/** Where a pattern applies in a JSON value: object properties, array items, additional properties. */
type Step = { prop: string } | { items: true } | { additional: string[] };

interface PatternRule {
  path: Step[];
  where: string;
  pattern: SafePattern;
  source: string;
}

/**
 * A JSON Schema whose `pattern`s are checked by grove's linear-time matcher instead of the
 * backtracking one `z.fromJSONSchema` would use: `split` returns the schema without them (for
 * zod) and the rules that check them. Patterns are supported where a string value sits at a
 * known place — under `properties`, `items` and `additionalProperties`, at any depth; a pattern
 * under a combinator (`anyOf`, `oneOf`, `allOf`, `not`, `if`) or in `patternProperties` is
 * rejected when the input is checked, with where it was found.
 *
 * @example
 * const { schema, problems } = splitSchemaPatterns({ type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } });
 * problems({ id: 'ABC' }) // ['id: does not match /^[a-z]+$/']
 */
export function splitSchemaPatterns(schema: Record<string, unknown>): { schema: Record<string, unknown>; problems(value: unknown): string[] } {
  const rules: PatternRule[] = [];
  const stripped = strip(schema, [], '', rules) as Record<string, unknown>;
  return {
    schema: stripped,
    problems: (value) => rules.flatMap((rule) => check(rule, value, rule.path, '')),
  };
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

function strip(node: unknown, path: Step[], where: string, rules: PatternRule[], inCombinator = false): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
    const at = where ? `${where}.${key}` : key;
    if (key === 'pattern' && typeof child === 'string') {
      if (inCombinator) throw new UnsupportedPatternError(`a pattern at ${at} is under a combinator or patternProperties, where grove cannot check it in linear time; move it to properties/items`);
      rules.push({ path, where: where || '(root)', pattern: compilePattern(child), source: child });
      continue;
    }
    if (key === 'properties' && child && typeof child === 'object') {
      out[key] = Object.fromEntries(Object.entries(child as Record<string, unknown>).map(([name, sub]) => [name, strip(sub, [...path, { prop: name }], `${at}.${name}`, rules, inCombinator)]));
    } else if (key === 'items') {
      out[key] = strip(child, [...path, { items: true }], at, rules, inCombinator);
    } else if (key === 'additionalProperties') {
      const known = Object.keys(((node as Record<string, unknown>).properties as Record<string, unknown> | undefined) ?? {});
      out[key] = strip(child, [...path, { additional: known }], at, rules, inCombinator);
    } else if (COMBINATORS.includes(key)) {
      out[key] = Array.isArray(child) ? child.map((c, i) => strip(c, path, `${at}[${i}]`, rules, true)) : strip(child, path, at, rules, true);
    } else {
      out[key] = child;
    }
  }
  return out;
}

function check(rule: PatternRule, value: unknown, steps: Step[], at: string): string[] {
  if (steps.length === 0) {
    if (typeof value !== 'string' || rule.pattern.test(value)) return [];
    return [`${at || '(root)'}: does not match /${rule.source}/`];
  }
  const [step, ...rest] = steps;
  if ('prop' in step) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || !(step.prop in value)) return [];
    return check(rule, (value as Record<string, unknown>)[step.prop], rest, at ? `${at}.${step.prop}` : step.prop);
  }
  if ('items' in step) return Array.isArray(value) ? value.flatMap((v, i) => check(rule, v, rest, `${at}[${i}]`)) : [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([k]) => !step.additional.includes(k))
    .flatMap(([k, v]) => check(rule, v, rest, at ? `${at}.${k}` : k));
}

/**
 * A zod schema from a user's JSON Schema whose string patterns are matched in linear time
 * (`splitSchemaPatterns`); `native` keeps zod's own (backtracking) matching, for runs recorded
 * before grove matched patterns in linear time. With `arrayBounds` (default; off only for runs
 * recorded before `grove-verified-checks`), `minItems`/`maxItems`/`uniqueItems` hold on arrays
 * without `items` too (see `withArrayItems`). With `exact` (default; off only for runs recorded
 * before `grove-json-schema-exact`), every keyword holds by the standard's rules (`schemaProblems`).
 *
 * @throws UnsupportedPatternError (a pattern RE2 cannot match or grove cannot place) or zod's error (not a usable JSON Schema).
 * @example
 * zodFromJsonSchema({ type: 'string', pattern: '^y' }).safeParse('yellow').success // true
 */
export function zodFromJsonSchema(raw: Record<string, unknown>, engine: 'linear' | 'native' = 'linear', arrayBounds = true, exact = true): z.ZodType {
  const json = arrayBounds ? (withArrayItems(raw) as Record<string, unknown>) : raw;
  // What zod's reader leaves out (keywords without a `type`, `required` names not under `properties`): both must pass.
  const exactly = <T extends z.ZodType>(schema: T) => (exact ? schema.superRefine((value, ctx) => { for (const message of schemaProblems(json, value)) ctx.addIssue({ code: 'custom', message }); }) : schema);
  if (engine === 'native') return exactly(z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]));
  const { schema, problems } = splitSchemaPatterns(json);
  return exactly(
    z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).superRefine((value, ctx) => {
      for (const message of problems(value)) ctx.addIssue({ code: 'custom', message });
    }),
  );
}
