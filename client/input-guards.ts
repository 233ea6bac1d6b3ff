import { inputShapeProblem, INPUT_LIMITS } from '../core/schemas/input-shape';
import { GroveInputError } from '../core/schemas/parse-input';
import { inputSizeProblem, MAX_RUN_INPUT_BYTES } from '../core/payload-limits';

/** Temporal refuses payloads over 2 MB (`limit.blobSize.error`); a run's input is one payload, and its prompt travels on into activities. */
export const MAX_INPUT_BYTES = MAX_RUN_INPUT_BYTES;
/** Deeper than this, JSON is not a run's input but an accident (and some converters stop earlier). */
export const MAX_INPUT_DEPTH = INPUT_LIMITS.depth;

/**
 * Checks that a run's input can travel through Temporal before anything is started: plain JSON
 * (no functions, cycles, BigInts), not nested absurdly deep, and under Temporal's payload limit —
 * each with a message that names the field and the limit, instead of Temporal's "Failed to start
 * Workflow", "Unable to convert [object Object] to payload" or a stack overflow. The shape is
 * checked without recursion, so no depth of input overflows the stack.
 *
 * @example
 * checkPayload('agent', input); // throws GroveInputError: invalid agent input: 3.1 MB is over Temporal's 2 MB payload limit…
 */
export function checkPayload(kind: string, input: unknown): void {
  const problem = inputShapeProblem(input);
  if (problem) throw new GroveInputError(`invalid ${kind} input: ${problem}`);
  const size = inputSizeProblem(input);
  if (size) throw new GroveInputError(`invalid ${kind} input: ${size}`);
}
