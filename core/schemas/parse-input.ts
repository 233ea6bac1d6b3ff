import type { z } from 'zod';
import { formatIssuePath } from './errors';
import { RunFailure } from '../failures';

/**
 * Thrown for input that does not match its schema; the message is one line naming each bad
 * field, e.g. `invalid airetry input: config.maxRetries: Too small: expected number to be >=0`.
 * Its name doubles as the Temporal failure type when a workflow rejects its input.
 */
export class GroveInputError extends Error {
  override name = RunFailure.InvalidInput;
}

/**
 * @example
 * const input = parseInput(GenerateInputSchema, raw, 'generate input'); // throws GroveInputError
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => {
    const path = formatIssuePath('', issue.path).replace(/^\./, '');
    return `${path || '(input)'}: ${issue.message}`;
  });
  throw new GroveInputError(`invalid ${what}: ${fields.join('; ')}`);
}
