/**
 * A small valid instance of a JSON schema. WHY: policies that do not care about a schema
 * (echo, the classifier's wrapper object) must still answer json_schema requests and forced
 * tool calls with JSON a caller can parse and validate.
 *
 * Supports the subset structured outputs use: type (incl. arrays of types), properties,
 * required, items, enum, const, anyOf/oneOf, default, minItems. Unknown shapes give `{}`.
 */
type Schema = Record<string, unknown>;

/**
 * Builds an instance: `strings` gives the value for string leaves (by property name; key `'*'`
 * for any other string leaf), others
 * get their `default`, first `enum` value, `const`, or a zero value. Every property is filled
 * (required or not) so the result also shows the expected keys.
 *
 * @example
 * schemaExample({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } }, { a: 'hi' })
 * // { a: 'hi', b: 0 }
 */
export function schemaExample(schema: unknown, strings: Record<string, string> = {}, key = ''): unknown {
  if (!schema || typeof schema !== 'object') return {};
  const s = schema as Schema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const wanted = strings[key];
    return wanted !== undefined && s.enum.includes(wanted) ? wanted : s.enum[0];
  }
  if ('default' in s && strings[key] === undefined) return s.default;
  const alts = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alts) && alts.length > 0) {
    const nonNull = alts.find((a) => !(a && typeof a === 'object' && (a as Schema).type === 'null'));
    return schemaExample(nonNull ?? alts[0], strings, key);
  }
  let type = s.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? type[0];
  if (type === undefined && s.properties) type = 'object';
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) out[k] = schemaExample(v, strings, k);
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: min }, () => schemaExample(s.items, strings, key));
    }
    case 'string':
      return strings[key] ?? strings['*'] ?? '';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}
