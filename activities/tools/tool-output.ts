import { deepEqual } from '../../core/conversation/deep-equal';

/**
 * The text the model sees of a tool's output when the tool has no `formatOutput`: a string as
 * is, anything else as JSON (Saplings uses Python's `str`; JSON is the closest thing that a
 * model reads reliably). Values JSON cannot write (undefined, a BigInt, a cycle) fall back to
 * `String(output)`.
 *
 * @example
 * defaultFormatOutput(76382.76173) // '76382.76173'
 * defaultFormatOutput({ a: 2, b: 3, result: 6 }) // '{"a":2,"b":3,"result":6}'
 */
export function defaultFormatOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    const text = JSON.stringify(output);
    if (text !== undefined) return text;
  } catch {
    // falls through
  }
  return String(output);
}

/**
 * The raw output as it is stored in the tool message: messages travel through Temporal
 * history and the store as JSON, and a message must hash the same after that trip. So a value
 * that survives a JSON round trip is stored as its JSON copy (class instances become plain
 * objects, undefined members vanish); any other (a Date, NaN, a BigInt, a cycle) as
 * `String(output)`. `undefined` stays undefined (the message then has no `rawOutput`).
 *
 * @example
 * jsonSafeOutput({ result: 6 }) // { result: 6 }
 * jsonSafeOutput(new Date(0))   // 'Thu Jan 01 1970 ...'
 */
export function jsonSafeOutput(output: unknown): unknown {
  if (output === undefined) return undefined;
  try {
    const text = JSON.stringify(output);
    if (text !== undefined) {
      const copy: unknown = JSON.parse(text);
      if (deepEqual(copy, output)) return copy;
    }
  } catch {
    // falls through
  }
  return String(output);
}

/** How much of a tool's output is kept by default (characters): results travel through workflow history, where one payload may hold 2 MB. */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;

/**
 * A tool output cut to `maxChars`, with a note the model (and a person) can read saying so —
 * and, given `wholeRef`, where the whole output is kept.
 *
 * @example
 * cutOutput('x'.repeat(10), 4) // 'xxxx\n[output cut: the first 4 of 10 characters]'
 */
export function cutOutput(text: string, maxChars: number, wholeRef?: string): string {
  if (text.length <= maxChars) return text;
  const where = wholeRef ? `; the whole output is message ${wholeRef} in the message store` : '';
  return `${text.slice(0, maxChars)}\n[output cut: the first ${maxChars} of ${text.length} characters${where}]`;
}
