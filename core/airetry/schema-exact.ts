import { compilePattern, type SafePattern } from './safe-pattern';

/**
 * What a value breaks of a JSON Schema, by the standard's rules (draft 2020-12): every keyword
 * applies to the values of its type whether or not the schema names a `type`, and `required`
 * names need not be declared under `properties`. zod's JSON Schema reader (which grove's checks
 * also run) leaves out keywords in exactly those places — `{"type":"object","required":["a"]}`
 * accepts `{}`, `{"maxLength":3}` accepts any string, `{"minProperties":5}` any object — so a
 * check would claim a pass the schema does not give. This walk adds what zod leaves out; both
 * must pass. Patterns are matched by grove's linear-time matcher (`splitSchemaPatterns`), not here.
 *
 * @example
 * schemaProblems({ type: 'object', required: ['approved'] }, { a: 1 }) // ['(root): "approved" is required']
 */
export function schemaProblems(schema: unknown, value: unknown): string[] {
  const problems: string[] = [];
  const budget = { steps: MAX_STEPS };
  walk(schema, value, '', schema, problems, 0, budget);
  // A walk cut short has not shown the value valid: that is a problem in itself.
  if (budget.steps < 0) problems.push(`(root): checking this answer against the schema takes more than ${MAX_STEPS.toLocaleString('en-US')} steps`);
  return problems;
}

/**
 * The schema positions one check may visit: `$ref`s that fan out (each level referring to the
 * one below twice) grow exponentially, and a check runs inside the workflow. Input checks refuse
 * such schemas (`schemaExpansion`); this bound holds whatever reaches here.
 */
const MAX_STEPS = 100_000;

/**
 * How many schema positions the schema has with its `$ref`s followed, up to `limit`: more
 * than `limit` (a cycle, or references that fan out) is refused when the input is checked.
 *
 * @example
 * schemaExpansion({ $ref: '#' }, 10_000) // 10_001: it refers to itself
 */
export function schemaExpansion(schema: unknown, limit: number): number {
  let count = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: schema, depth: 0 }];
  while (stack.length > 0 && count <= limit) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    count++;
    if (depth > MAX_DEPTH) return limit + 1;
    if (Array.isArray(node)) {
      for (const child of node) stack.push({ node: child, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(node as Schema)) {
      if (key === 'const' || key === 'enum' || key === '$defs' || key === 'definitions') continue; // data, or reached through $ref
      if (key === '$ref' && typeof child === 'string') stack.push({ node: resolveRef(schema, child), depth: depth + 1 });
      else stack.push({ node: child, depth: depth + 1 });
    }
  }
  return count;
}

type Schema = Record<string, unknown>;

const MAX_DEPTH = 200;

function walk(schema: unknown, value: unknown, at: string, root: unknown, out: string[], depth: number, budget: { steps: number }): void {
  if (depth > MAX_DEPTH) return void out.push(`${at || '(root)'}: the schema nests (or refers to itself) more than ${MAX_DEPTH} levels deep`);
  if (--budget.steps < 0) return;
  if (schema === true || schema === undefined) return;
  if (schema === false) return void out.push(`${at || '(root)'}: no value is allowed here`);
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as Schema;
  const where = at || '(root)';
  const fail = (message: string) => out.push(`${where}: ${message}`);
  const sub = (child: unknown, v: unknown, path = at) => walk(child, v, path, root, out, depth + 1, budget);
  const passes = (child: unknown, v: unknown) => {
    const found: string[] = [];
    walk(child, v, at, root, found, depth + 1, budget);
    return found.length === 0;
  };

  if (typeof s.$ref === 'string') sub(resolveRef(root, s.$ref), value);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => isType(value, t))) fail(`expected ${types.join(' or ')}, got ${typeName(value)}`);
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, value))) fail(`must be one of ${JSON.stringify(s.enum).slice(0, 200)}`);
  if ('const' in s && !deepEqual(s.const, value)) fail(`must be ${JSON.stringify(s.const).slice(0, 200)}`);
  if (Array.isArray(s.allOf)) for (const c of s.allOf) sub(c, value);
  if (Array.isArray(s.anyOf) && !s.anyOf.some((c) => passes(c, value))) fail('matches none of anyOf');
  if (Array.isArray(s.oneOf)) {
    const n = s.oneOf.filter((c) => passes(c, value)).length;
    if (n !== 1) fail(`matches ${n} of oneOf, not exactly one`);
  }
  if ('not' in s && passes(s.not, value)) fail('matches the schema under not');
  if ('if' in s) {
    if (passes(s.if, value)) {
      if ('then' in s) sub(s.then, value);
    } else if ('else' in s) sub(s.else, value);
  }

  if (isType(value, 'object')) objectRules(s, value as Record<string, unknown>, at, fail, sub);
  if (Array.isArray(value)) arrayRules(s, value, at, fail, sub, passes);
  if (typeof value === 'string') {
    const length = [...value].length; // code points, as the standard counts
    if (typeof s.minLength === 'number' && length < s.minLength) fail(`must be at least ${s.minLength} characters long (it has ${length})`);
    if (typeof s.maxLength === 'number' && length > s.maxLength) fail(`must be at most ${s.maxLength} characters long (it has ${length})`);
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) fail(`must be ≥ ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) fail(`must be ≤ ${s.maximum}`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) fail(`must be > ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) fail(`must be < ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
      const q = value / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) fail(`must be a multiple of ${s.multipleOf}`);
    }
  }
}

function objectRules(s: Schema, value: Record<string, unknown>, at: string, fail: (m: string) => void, sub: (c: unknown, v: unknown, path?: string) => void): void {
  const keys = Object.keys(value);
  const path = (k: string) => (at ? `${at}.${k}` : k);
  if (Array.isArray(s.required)) for (const name of s.required) if (typeof name === 'string' && !has(value, name)) fail(`${JSON.stringify(name)} is required`);
  if (typeof s.minProperties === 'number' && keys.length < s.minProperties) fail(`must have at least ${s.minProperties} properties (it has ${keys.length})`);
  if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) fail(`must have at most ${s.maxProperties} properties (it has ${keys.length})`);
  const properties = isPlain(s.properties) ? s.properties : {};
  const patterns = isPlain(s.patternProperties) ? Object.entries(s.patternProperties).map(([p, child]) => [safe(p), child] as const) : [];
  for (const k of keys) {
    let declared = false;
    if (Object.prototype.hasOwnProperty.call(properties, k)) {
      declared = true;
      sub(properties[k], value[k], path(k));
    }
    for (const [pattern, child] of patterns) {
      if (pattern?.test(k)) {
        declared = true;
        sub(child, value[k], path(k));
      }
    }
    if (!declared && 'additionalProperties' in s) {
      if (s.additionalProperties === false) fail(`${JSON.stringify(k)} is not allowed (additionalProperties is false)`);
      else sub(s.additionalProperties, value[k], path(k));
    }
    if ('propertyNames' in s) sub(s.propertyNames, k, `${path(k)} (its name)`);
  }
  if (isPlain(s.dependentRequired)) {
    for (const [k, needs] of Object.entries(s.dependentRequired)) {
      if (has(value, k) && Array.isArray(needs)) for (const n of needs) if (typeof n === 'string' && !has(value, n)) fail(`${JSON.stringify(n)} is required when ${JSON.stringify(k)} is present`);
    }
  }
}

function arrayRules(s: Schema, value: unknown[], at: string, fail: (m: string) => void, sub: (c: unknown, v: unknown, path?: string) => void, passes: (c: unknown, v: unknown) => boolean): void {
  const path = (i: number) => `${at}[${i}]`;
  if (typeof s.minItems === 'number' && value.length < s.minItems) fail(`must have at least ${s.minItems} items (it has ${value.length})`);
  if (typeof s.maxItems === 'number' && value.length > s.maxItems) fail(`must have at most ${s.maxItems} items (it has ${value.length})`);
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  value.forEach((item, i) => {
    if (i < prefix.length) sub(prefix[i], item, path(i));
    else if ('items' in s) sub(s.items, item, path(i));
  });
  if (s.uniqueItems === true) {
    for (let i = 0; i < value.length; i++) for (let j = i + 1; j < value.length; j++) if (deepEqual(value[i], value[j])) return void fail(`items ${i} and ${j} are equal (uniqueItems)`);
  }
  if ('contains' in s) {
    const n = value.filter((item) => passes(s.contains, item)).length;
    const min = typeof s.minContains === 'number' ? s.minContains : 1;
    if (n < min) fail(`must contain at least ${min} matching item${min === 1 ? '' : 's'} (it has ${n})`);
    if (typeof s.maxContains === 'number' && n > s.maxContains) fail(`must contain at most ${s.maxContains} matching items (it has ${n})`);
  }
}

/** `#`, `#/$defs/name`, `#/definitions/name` or any JSON pointer into the schema itself. */
function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return true; // a remote schema is not fetched (the input check refuses it)
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return true;
    node = (node as Record<string, unknown>)[key];
  }
  return node ?? true;
}

/** An own property: `constructor`, `toString` or `__proto__` are not in `{}`, whatever JavaScript's prototype says. */
function has(value: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, name);
}

function isType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'null': return value === null;
    case 'boolean': return typeof value === 'boolean';
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'array': return Array.isArray(value);
    case 'object': return isPlain(value);
    default: return false;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON equality (the standard's: numbers by value, objects by keys regardless of order). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (!isPlain(a) || !isPlain(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

const compiled = new Map<string, SafePattern | undefined>();

/** A patternProperties key as grove's linear-time matcher (one it cannot compile matches nothing; the input check refuses it). */
function safe(pattern: string): SafePattern | undefined {
  if (!compiled.has(pattern)) {
    try {
      compiled.set(pattern, compilePattern(pattern));
    } catch {
      compiled.set(pattern, undefined);
    }
  }
  return compiled.get(pattern);
}
