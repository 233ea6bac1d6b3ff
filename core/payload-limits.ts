import { RunFailure } from './failures';

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

/**
 * The largest run input: Temporal's limit less 64 KB, because the prompt travels on into the
 * first activities' inputs with a little more around it (refs, parameters) — an input right at
 * the limit would start, then stall on its first activity.
 */
export const MAX_RUN_INPUT_BYTES = PAYLOAD_LIMIT_BYTES - 64 * 1024;

/**
 * Why a run's input is too large, naming its size and the limit; undefined when it fits.
 *
 * @example
 * inputSizeProblem(hugeInput) // "3.0 MB is over the 1.9 MB a run's input may take (Temporal's 2 MB payload limit, …)"
 */
export function inputSizeProblem(input: unknown): string | undefined {
  const bytes = jsonBytes(input);
  if (bytes <= MAX_RUN_INPUT_BYTES) return undefined;
  return (
    `${formatBytes(bytes)} is over the ${formatBytes(MAX_RUN_INPUT_BYTES)} a run's input may take (Temporal's ${formatBytes(PAYLOAD_LIMIT_BYTES)} payload limit, ` +
    'less room for what travels with the prompt); put large documents in the conversation by reference (a message store entry or a tool that fetches them) instead'
  );
}

/**
 * What a result may carry inline: well under the 2 MB payload limit, so a result with several
 * messages, its usage and its metadata always fits — one model call's answers share it, as do
 * the messages of a final trajectory.
 */
export const RESULT_BUDGET_BYTES = 1024 * 1024;

/**
 * The size of `value` as JSON, in UTF-8 bytes — what the payload converter sends (without
 * Node's Buffer, so workflows and `core` can measure too).
 *
 * @example
 * jsonBytes({ a: 'é' }) // 10
 */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value) ?? '';
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The failure type of a payload too large for Temporal (non-retryable: the same payload would fail again). */
export const PAYLOAD_TOO_LARGE = RunFailure.PayloadTooLarge;

/**
 * Why `value` cannot travel as one payload, naming `what`, its size and the limit; undefined
 * when it fits (or is not JSON at all: the payload converter says so in its own words).
 *
 * @example
 * payloadProblem('the run\'s result', result)
 * // "the run's result is 2.4 MB, over Temporal's 2 MB payload limit"
 */
export function payloadProblem(what: string, value: unknown): string | undefined {
  let bytes: number;
  try {
    bytes = jsonBytes(value);
  } catch {
    return undefined;
  }
  // A few hundred bytes of room for the payload's metadata and the message around it.
  return bytes > PAYLOAD_LIMIT_BYTES - 512 ? `${what} is ${formatBytes(bytes)}, over Temporal's ${formatBytes(PAYLOAD_LIMIT_BYTES)} payload limit` : undefined;
}
