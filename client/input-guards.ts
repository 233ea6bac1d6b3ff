import { GroveInputError } from '../core/schemas/parse-input';

/** Temporal refuses payloads over 2 MB (`limit.blobSize.error`); a run's input is one payload. */
export const MAX_INPUT_BYTES = 2 * 1024 * 1024;
/** Deeper than this, JSON is not a run's input but an accident (and some converters stop earlier). */
export const MAX_INPUT_DEPTH = 64;

/**
 * Checks that a run's input can travel through Temporal before anything is started: plain JSON
 * (no functions, cycles, BigInts), not nested absurdly deep, and under Temporal's payload limit —
 * each with a message that names the problem and the limit, instead of Temporal's "Failed to start
 * Workflow" or "Unable to convert [object Object] to payload".
 *
 * @example
 * checkPayload('agent', input); // throws GroveInputError: invalid agent input: 3.1 MB is over Temporal's 2 MB payload limit…
 */
export function checkPayload(kind: string, input: unknown): void {
  const depth = depthOf(input);
  if (depth > MAX_INPUT_DEPTH) {
    throw new GroveInputError(`invalid ${kind} input: it nests ${depth} levels deep, more than ${MAX_INPUT_DEPTH}; send flatter JSON`);
  }
  let json: string;
  try {
    json = JSON.stringify(input, (_key, value: unknown) => {
      if (typeof value === 'bigint') throw new TypeError('a BigInt is not JSON');
      if (typeof value === 'function' || typeof value === 'symbol') throw new TypeError(`a ${typeof value} is not JSON`);
      return value;
    });
  } catch (err) {
    throw new GroveInputError(`invalid ${kind} input: it is not plain JSON (${(err as Error).message})`);
  }
  const bytes = Buffer.byteLength(json ?? '');
  if (bytes > MAX_INPUT_BYTES) {
    throw new GroveInputError(
      `invalid ${kind} input: ${(bytes / 1024 / 1024).toFixed(1)} MB is over Temporal's 2 MB payload limit; put large documents in the conversation by reference (a message store entry or a tool that fetches them) instead`,
    );
  }
}

function depthOf(value: unknown, depth = 0, seen = new Set<object>()): number {
  if (value === null || typeof value !== 'object') return depth;
  if (seen.has(value)) return depth; // a cycle: JSON.stringify reports it
  seen.add(value);
  let max = depth + 1;
  for (const child of Object.values(value as Record<string, unknown>)) {
    max = Math.max(max, depthOf(child, depth + 1, seen));
    if (max > MAX_INPUT_DEPTH) break;
  }
  seen.delete(value);
  return max;
}
