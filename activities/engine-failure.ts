import { ApplicationFailure } from '@temporalio/common';
import { EngineFailure } from '../core/failures';
import { GroveEngineMissing } from '../runtime/optional-engine';

/**
 * A missing engine met inside an activity, as the activity's failure: a non-retryable
 * `ApplicationFailure` of type `GroveEngineMissing` with the same one line (retrying cannot
 * install a package, and tools and evaluators pass an `ApplicationFailure` on rather than
 * handing it to the model as the code's fault). Any other error is returned as it is.
 *
 * @example
 * try { return load(); } catch (err) { throw asEngineFailure(err); }
 */
export function asEngineFailure(err: unknown): unknown {
  if (!(err instanceof GroveEngineMissing)) return err;
  return ApplicationFailure.create({ message: err.message, type: EngineFailure.Missing, nonRetryable: true });
}
