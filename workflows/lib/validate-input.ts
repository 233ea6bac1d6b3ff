import { ApplicationFailure } from '@temporalio/workflow';
import type { z } from 'zod';
import { GroveInputError, parseInput } from '../../core/schemas/parse-input';

/**
 * Validates a workflow's input inside the workflow too (a backend may start it by name with
 * any Temporal client). A bad input fails the run at once with a non-retryable
 * `GroveInvalidInput` naming the field, instead of failing workflow tasks forever.
 */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  try {
    return parseInput(schema, value, what);
  } catch (err) {
    if (err instanceof GroveInputError) throw ApplicationFailure.nonRetryable(err.message, err.name);
    throw err;
  }
}
