/**
 * Temporal's limits on what travels through it, as grove plans around them: one payload (a run's
 * input or result, an activity's input or result) may be at most 2 MB (the server's default
 * `limit.blobSize.error`; the worker itself fails a task whose payload is larger, and retries it
 * forever). grove keeps what it sends well under that and names the size and the limit when
 * something would not fit, instead of letting a run stall in retries.
 */
export const PAYLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * A byte count for messages: `812 bytes`, `256 KB`, `3.1 MB` (binary units, one decimal unless whole).
 *
 * @example
 * formatBytes(3 * 1024 * 1024 + 20) // '3.0 MB'
 * formatBytes(2 * 1024 * 1024)      // '2 MB'
 */
export function formatBytes(n: number): string {
  const unit = (size: number, name: string) => `${n % size === 0 ? n / size : (n / size).toFixed(1)} ${name}`;
  if (n < 1024) return `${n} bytes`;
  return n < 1024 ** 2 ? unit(1024, 'KB') : unit(1024 ** 2, 'MB');
}
