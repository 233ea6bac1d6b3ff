import type { UpdateDefinition } from '@temporalio/common';
import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import type { z } from 'zod';
import { GroveInputError, parseInput } from '../../core/schemas/parse-input';
import { RunFailure } from '../../core/failures';

/**
 * Parses an update's arguments in its validator (and again in its handler): a bad field is
 * rejected before Temporal records the update, with the field named, as a `GroveInvalidInput`.
 *
 * @example
 * setHandler(rewindUpdate, handler, { validator: (req) => void parseUpdate(SessionRewindRequestSchema, req, 'rewind') });
 */
export function parseUpdate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  try {
    return parseInput(schema, value, `${what} request`);
  } catch (err) {
    if (err instanceof GroveInputError) throw ApplicationFailure.nonRetryable(err.message, err.name);
    throw err;
  }
}

/**
 * Rejects an update that cannot apply, saying why and what to do instead. In a validator the
 * update is never recorded; in a handler (the run changed while the update waited its turn) it
 * fails with this message.
 *
 * @example
 * if (state.closed) rejectUpdate('send', 'the session is closed');
 */
export function rejectUpdate(what: string, reason: string): never {
  throw ApplicationFailure.nonRetryable(`${what} rejected: ${reason}`, RunFailure.UpdateRejected);
}

/**
 * Registers a steering update: its arguments are parsed with `schema` in the validator (then
 * `check` may reject what cannot apply now) and again in the handler, which gets them typed.
 *
 * @example
 * steeringUpdate(stopUpdate, StopRequestSchema, 'stop', {
 *   check: () => { if (done) rejectUpdate('stop', 'the run has ended'); },
 *   run: async (request) => { stopRequested = request; return { stopping: true }; },
 * });
 */
export function steeringUpdate<S extends z.ZodType, R>(
  update: UpdateDefinition<R, [z.input<S>]>,
  schema: S,
  what: string,
  spec: { check?: (request: z.output<S>) => void; run: (request: z.output<S>) => Promise<R>; description: string },
): void {
  setHandler(update, (args) => spec.run(parseUpdate(schema, args, what)), {
    validator: (args) => spec.check?.(parseUpdate(schema, args, what)),
    description: spec.description,
  });
}
