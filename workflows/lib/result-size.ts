import { ApplicationFailure } from '@temporalio/workflow';
import { PAYLOAD_TOO_LARGE, payloadProblem } from '../../core/payload-limits';
import { failRun, type FinalCounters } from './run-status';

/**
 * A run's result, checked against Temporal's payload limit before it is returned: a result that
 * does not fit would fail the run's last workflow task, and Temporal would retry it forever — the
 * run would look alive and never end. It fails the run instead, at once, naming the size and the
 * limit (`GrovePayloadTooLarge`). Given `final` counters, the run's failed status is written here
 * (for code outside the run's own `failRun` catch). Check before reporting success: a run whose
 * result cannot be returned did not succeed.
 *
 * @example
 * const result = fitResult('generate', { output, message, conversation, usage, model }, { calls: 1 });
 * reportRun({ status: 'succeeded', calls: 1 });
 * return result;
 */
export function fitResult<T>(kind: string, result: T, final?: FinalCounters): T {
  const problem = payloadProblem(`the ${kind} run's result`, result);
  if (!problem) return result;
  const failure = ApplicationFailure.nonRetryable(`${problem}: it cannot be returned through Temporal (every message of the run is in the message store)`, PAYLOAD_TOO_LARGE);
  if (final) failRun(failure, final);
  throw failure;
}
