import { AiretryFailure } from './failures';

/**
 * Errors thrown by grove's core, each with a stable `name` that callers (and Temporal retry
 * policies, via `ApplicationFailure` types) can match on.
 *
 * Why a marker instead of plain `instanceof`: workflow code runs in a separate V8 context, so
 * an error created there is not an `instanceof` the worker's copy of the class. `isInstance`
 * checks a `Symbol.for` marker plus the name, which works across realms.
 */
const MARKER = Symbol.for('grove.error');

export class GroveError extends Error {
  /** The stable name given to `error.name`; subclasses override it. */
  static readonly errorName: string = 'GroveError';
  /** Present on every grove error, whatever realm created it. */
  readonly [MARKER] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = (new.target as typeof GroveError).errorName;
  }

  /**
   * `GroveError.isInstance(e)`: any grove error; `UnknownNodeError.isInstance(e)`: that kind only.
   *
   * @example
   * try { tree.node(99) } catch (e) { if (UnknownNodeError.isInstance(e)) console.log(e.message) }
   */
  static isInstance<T extends GroveError>(
    this: (abstract new (...args: never[]) => T) & { errorName: string },
    error: unknown,
  ): error is T {
    if (typeof error !== 'object' || error === null) return false;
    if ((error as Record<symbol, unknown>)[MARKER] !== true) return false;
    return this.errorName === GroveError.errorName || (error as Error).name === this.errorName;
  }
}

/** A node id that is not in the tree. */
export class UnknownNodeError extends GroveError {
  static override readonly errorName = 'UnknownNodeError';
}
/** A bad argument to a core function (negative counts, unknown ordering or scoring, missing rng...). */
export class InvalidArgumentError extends GroveError {
  static override readonly errorName = 'InvalidArgumentError';
}
/** A serialised tree that cannot be loaded (corrupt or hand-edited workflow state). */
export class InvalidTreeJsonError extends GroveError {
  static override readonly errorName = 'InvalidTreeJsonError';
}
/** Configuration (retry config, budget spec, scoring...) that fails validation. */
export class InvalidConfigError extends GroveError {
  static override readonly errorName = 'InvalidConfigError';
}
/** In-place feedback needs a user message to extend, and the conversation has none. */
export class NoUserMessageError extends GroveError {
  static override readonly errorName = 'NoUserMessageError';
}

/**
 * airetry ran out of retries or calls with `throw` set: the seeds' "Maximum retry budget
 * reached" (which the original never actually threw: its `throw` keyword shadowed `Base.throw`).
 */
export class RetryBudgetError extends GroveError {
  static override readonly errorName = AiretryFailure.RetryBudgetExhausted;
}

/** An AI call was used before `run()`, or otherwise out of order. */
export class CallStateError extends GroveError {
  static override readonly errorName = AiretryFailure.CallState;
}
