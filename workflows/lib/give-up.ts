import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { activityKind, isToolActivity } from '../../core/runs/activity-kinds';
import type { LlmSettings } from '../../core/schemas/llm-settings';
import { LlmFailure, RunFailure } from '../../core/failures';
import { firstLine } from '../../core/first-line';

/** The retry bounds a run's activities were scheduled with (its `llm` settings). */
export type RetryBounds = Pick<LlmSettings, 'retryWindowMs' | 'maxAttempts'>;

/**
 * What to say when a call ran out of retries — its retry window closed, or its attempts ran out
 * — naming the bound that ended it and the call's last error, e.g. `model call (llmChat) gave up:
 * its retry window closed (llm.retryWindowMs = 15,000 ms: every attempt and wait of one call
 * together); last error: GroveNetworkError: cannot reach the model endpoint at …`. The type is the
 * last error's (`GroveNetworkError`), so what matches on failure types keeps matching. Undefined
 * for any other failure (a non-retryable error, a cancellation).
 *
 * @example
 * const gaveUp = retriesExhausted(err, settings); // { message: 'model call (llmChat) gave up: …', type: 'GroveNetworkError' }
 */
export function retriesExhausted(err: unknown, bounds: RetryBounds): { message: string; type: string } | undefined {
  const activity = chain(err).find((f): f is ActivityFailure => f instanceof ActivityFailure);
  if (!activity || (activity.retryState !== 'TIMEOUT' && activity.retryState !== 'MAXIMUM_ATTEMPTS_REACHED')) return undefined;
  const causes = chain(activity.cause);
  const last = causes.find((f): f is ApplicationFailure => f instanceof ApplicationFailure);
  const timeouts = causes.filter((f): f is TimeoutFailure => f instanceof TimeoutFailure).map((t) => t.timeoutType);
  const what = `${activityKind(activity.activityType)} (${activity.activityType})`;
  // TIMEOUT: the window is spent — the next attempt would begin after it (Temporal then fails the
  // call with the last attempt's error) or an attempt was still running when it closed.
  const bound =
    activity.retryState === 'TIMEOUT'
      ? `its retry window closed (llm.retryWindowMs = ${bounds.retryWindowMs.toLocaleString('en')} ms: every attempt and wait of one call together)`
      : `it used all ${attemptCap(activity.activityType, bounds)} attempts it may make (llm.maxAttempts${isToolActivity(activity.activityType) ? '; tools: at most 3' : ''})`;
  const attemptTimeout = timeouts.find((t) => t !== 'SCHEDULE_TO_CLOSE');
  const lastError = last
    ? `${last.type ?? 'Error'}: ${firstLine(last.message)}`
    : attemptTimeout
      ? `the attempt timed out (${timeoutName(attemptTimeout)})`
      : timeouts.length > 0
        ? 'none (an attempt was still running when the window closed)'
        : 'none recorded';
  // Without an error of its own, a call that ran out of time is a timeout (the type a model call's timeout has).
  return { message: `${what} gave up: ${bound}; last error: ${lastError}`, type: last?.type ?? (timeouts.length > 0 ? LlmFailure.Timeout : RunFailure.RetriesExhausted) };
}

function attemptCap(activityType: string, bounds: RetryBounds): number {
  return isToolActivity(activityType) ? (bounds.maxAttempts === 0 ? 3 : Math.min(bounds.maxAttempts, 3)) : bounds.maxAttempts;
}

/** An error and its causes, outermost first. */
function chain(err: unknown): Error[] {
  const out: Error[] = [];
  for (let f: unknown = err; f instanceof Error && out.length < 20; f = f.cause) out.push(f);
  return out;
}

/** `START_TO_CLOSE` -> `start-to-close`. */
function timeoutName(type: string | undefined): string {
  return (type ?? 'unspecified').toLowerCase().replace(/_/g, '-');
}
