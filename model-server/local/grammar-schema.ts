/**
 * A JSON Schema reduced to what node-llama-cpp's grammar generator understands (type,
 * properties, required, items, enum, const, oneOf; anyOf becomes oneOf; strings, numbers,
 * booleans, null): the same shape, minus annotations and constraints it cannot enforce (those
 * are still checked by grove after the answer, and fed back if broken).
 *
 * @example
 * grammarSchema({ type: 'object', properties: { a: { type: 'string', minLength: 2 } }, required: ['a'], additionalProperties: false })
 * // { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
 */
export function grammarSchema(schema: unknown): Record<string, unknown> {
  if (!schema || typeof schema !== 'object') return { type: 'string' };
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return { enum: s.enum };
  if ('const' in s) return { const: s.const };
  const union = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(union)) return { oneOf: union.map(grammarSchema) };
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') ?? 'string' : s.type;
  if (type === 'object' || (type === undefined && s.properties)) {
    const properties = Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, grammarSchema(v)]));
    const required = Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string' && r in properties) : Object.keys(properties);
    return { type: 'object', properties, required };
  }
  if (type === 'array') return { type: 'array', items: grammarSchema(s.items ?? {}) };
  if (type === 'integer') return { type: 'integer' };
  if (type === 'number' || type === 'boolean' || type === 'null' || type === 'string') return { type };
  return { type: 'string' };
}
