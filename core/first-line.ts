/**
 * The first line of a text (an error message, a log entry), cut to `max` characters with an
 * ellipsis: what a span status, a log line or a replay verdict shows of a failure whose message
 * goes on with a stack or a long body.
 *
 * @example
 * firstLine('boom\n    at f (x.ts:1)'); // 'boom'
 * firstLine('a'.repeat(500), 300).length; // 300
 */
export function firstLine(text: string, max = Infinity): string {
  const line = text.split('\n')[0]!;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
