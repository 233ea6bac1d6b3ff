/** Keys whose value is one sub-schema, a list of them, or a map of them (where JSON Schema nests schemas). */
const ONE = ['items', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LIST = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * The schema with `items: {}` on every array schema that has none. zod's JSON Schema reader
 * ignores `minItems`, `maxItems` and `uniqueItems` on an array schema without `items` (zod
 * 4.6: `{"type":"array","minItems":2}` accepts `["a"]`), so a check would claim a pass the
 * schema does not give; `{}` (any item) changes nothing else. Only schema positions are walked
 * (`const` and `enum` values are data and left alone).
 *
 * @example
 * withArrayItems({ type: 'array', minItems: 2 }); // { type: 'array', minItems: 2, items: {} }
 */
export function withArrayItems(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ONE.includes(key)) out[key] = withArrayItems(value);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map(withArrayItems);
    else if (MAP.includes(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withArrayItems(v)]));
    } else out[key] = value;
  }
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && !('items' in node)) out.items = {};
  return out;
}
