/**
 * Canonical hashing of requests. WHY: a retried activity re-sends a byte-different but
 * meaning-identical body (keys in another order, a different `n`, a new `max_tokens`); it must
 * get the identical answer, so answers are keyed by a hash of the request's MEANING.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/hash/canonical-json';

export { canonicalJson };

/**
 * Fields left out of the request hash because they do not change what a model would say:
 * `n` (choice i of n=3 equals choice i of n=1), `max_tokens` / `max_completion_tokens` (they
 * only cut), `seed` (ignored by this server), `stream`, `stream_options`, `user`, `metadata`,
 * `store`, `service_tier`, `logprobs`, `top_logprobs`. Everything else counts, including
 * `temperature` (grove nudges it by 1e-3 per sample so that samples differ), `top_p`, `tools`,
 * `tool_choice`, `parallel_tool_calls`, `response_format` and the full model string with its
 * options.
 */
export const UNHASHED_REQUEST_FIELDS: readonly string[] = [
  'n',
  'max_tokens',
  'max_completion_tokens',
  'seed',
  'stream',
  'stream_options',
  'user',
  'metadata',
  'store',
  'service_tier',
  'logprobs',
  'top_logprobs',
];

/**
 * Hex SHA-256 of a UTF-8 string.
 *
 * @example
 * sha256Hex('abc').slice(0, 8) // 'ba7816bf'
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The hash that identifies a request's meaning (see {@link UNHASHED_REQUEST_FIELDS}).
 *
 * @example
 * requestHash({ model: 'echo', messages: [], n: 3 }) === requestHash({ messages: [], model: 'echo' }) // true
 */
export function requestHash(body: Record<string, unknown>): string {
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!UNHASHED_REQUEST_FIELDS.includes(k)) kept[k] = v;
  return sha256Hex(canonicalJson(kept));
}
