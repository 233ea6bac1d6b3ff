import { ApplicationFailure, patched } from '@temporalio/workflow';
import type { z } from 'zod';
import { inputShapeProblem } from '../../core/schemas/input-shape';
import { inputSizeProblem } from '../../core/payload-limits';
import { GroveInputError, parseInput } from '../../core/schemas/parse-input';
import { ENDINGS_PATCH, reportRun } from './run-status';

/**
 * Validates a workflow's input inside the workflow too (a backend may start it by name with
 * any Temporal client). A bad input fails the run at once with a non-retryable
 * `GroveInvalidInput` naming the field, instead of failing workflow tasks forever; the run is
 * marked `GroveStatus = "failed"` (with its `GroveKind`) like any other failed run. Its shape is
 * checked first, without recursion: a client in another language can send JSON thousands of
 * levels deep, which would overflow the stack of zod and of every later `JSON.stringify`; and its
 * size, which must leave room for the prompt to travel on into the run's first activities.
 */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown, what: string, kind: string): z.output<S> {
  try {
    const shape = inputShapeProblem(value) ?? inputSizeProblem(value);
    if (shape) throw new GroveInputError(`invalid ${what}: ${shape}`);
    return parseInput(schema, value, what);
  } catch (err) {
    if (!(err instanceof GroveInputError)) throw err;
    if (patched(ENDINGS_PATCH)) reportRun({ kind, status: 'failed' });
    throw ApplicationFailure.nonRetryable(err.message, err.name);
  }
}
