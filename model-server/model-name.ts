/**
 * Model strings select a policy and may carry options: `'multiplier?p=0.3&seed=1'`.
 * WHY options in the name: the `openai` SDK sends only `model` for free, so a test can tune a
 * policy (error rate, accepted words...) without custom headers or server restarts.
 */
export interface ParsedModelName {
  /** The policy name (the part before `?`). */
  policy: string;
  options: Record<string, string>;
}

/**
 * Splits a model string into policy name and options (URL query syntax).
 *
 * @example
 * parseModelName('multiplier?p=0.3') // { policy: 'multiplier', options: { p: '0.3' } }
 */
export function parseModelName(model: string): ParsedModelName {
  const q = model.indexOf('?');
  if (q < 0) return { policy: model, options: {} };
  const options: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(model.slice(q + 1))) options[k] = v;
  return { policy: model.slice(0, q), options };
}
