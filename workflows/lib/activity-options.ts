import { ActivityCancellationType, patched, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import type { LlmSettings } from '../../core/schemas/llm-settings';
import { patchId } from '../patches';

/**
 * Patch id: `llm.retryWindowMs` bounds every attempt of a call together (schedule-to-close), and
 * one attempt cannot outlive it (start-to-close at most the window). Runs recorded before it
 * scheduled their activities with the larger of the window and `startToCloseTimeoutMs` as their
 * schedule-to-close timeout, and replay with it.
 */
export const RETRY_WINDOW = patchId('grove-retry-window');

/**
 * Patch id: a cancelled run waits for its model calls in flight to end — aborted (the activity
 * learns of the cancellation at its next heartbeat and aborts the request) or answered — before
 * it writes its final counts, so a call the model answered after the cancellation was asked is
 * counted. Runs recorded before ended at once and left such a call out of `GroveCalls`.
 */
export const CANCEL_WAITS = patchId('grove-cancel-waits');

/** A step declared fast that takes longer than this has no business being declared fast. */
const FAST_STEP_TIMEOUT_MS = 30_000;

/**
 * Local activity options for a step declared `fast` (a tool or a custom evaluator), from the
 * regular options it would otherwise run with: the same retry policy, at most 3 attempts, and a
 * start-to-close timeout of at most 30 s.
 *
 * @example
 * const local = proxyLocalActivities<ToolActivities>(fastStepOptions(options));
 */
export function fastStepOptions(regular: ActivityOptions): LocalActivityOptions {
  return {
    startToCloseTimeout: Math.min(Number(regular.startToCloseTimeout ?? FAST_STEP_TIMEOUT_MS), FAST_STEP_TIMEOUT_MS),
    retry: { ...regular.retry, maximumAttempts: 3 },
  };
}

/**
 * Activity options from a run's LLM settings: timeouts, and exponential-backoff retries within
 * the retry window that stop at once on the given failure types. Every grove activity proxy
 * starts from these.
 *
 * The window is the whole budget of one call: every attempt and every wait between attempts
 * (`scheduleToCloseTimeout`), so a call with `retryWindowMs: 15000` has failed — with its last
 * error — 15 s after it was first scheduled, however many attempts that was. One attempt may
 * take `startToCloseTimeoutMs`, but never longer than the window.
 *
 * @example
 * const options = activityOptions(settings, NON_RETRYABLE_LLM_FAILURES);
 */
export function activityOptions(settings: LlmSettings, nonRetryableErrorTypes: string[], over: { maxAttempts?: number } = {}): ActivityOptions {
  const windowed = patched(RETRY_WINDOW);
  return {
    taskQueue: settings.taskQueue,
    startToCloseTimeout: windowed ? Math.min(settings.startToCloseTimeoutMs, settings.retryWindowMs) : settings.startToCloseTimeoutMs,
    scheduleToCloseTimeout: windowed ? settings.retryWindowMs : Math.max(settings.retryWindowMs, settings.startToCloseTimeoutMs),
    heartbeatTimeout: settings.heartbeatTimeoutMs,
    retry: {
      initialInterval: settings.initialRetryMs,
      backoffCoefficient: 2,
      maximumInterval: settings.maxRetryIntervalMs,
      maximumAttempts: (over.maxAttempts ?? settings.maxAttempts) || undefined, // 0: no cap within the window
      nonRetryableErrorTypes,
    },
  };
}

/**
 * Activity options for model calls: {@link activityOptions}, and a cancellation that waits for
 * the call in flight to end (aborted or answered) rather than leaving it behind uncounted — a
 * run's model calls are the requests a model answered, a cancelled run's too (docs/runs.md).
 *
 * @example
 * const models = proxyActivities<LlmActivities>(modelCallOptions(settings, NON_RETRYABLE_LLM_FAILURES));
 */
export function modelCallOptions(settings: LlmSettings, nonRetryableErrorTypes: string[]): ActivityOptions {
  const options = activityOptions(settings, nonRetryableErrorTypes);
  return patched(CANCEL_WAITS) ? { ...options, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED } : options;
}
