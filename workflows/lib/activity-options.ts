import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import type { LlmSettings } from '../../core/schemas/llm-settings';

/**
 * Activity options from a run's LLM settings: timeouts, and exponential-backoff retries within
 * the retry window that stop at once on the given failure types. Every grove activity proxy
 * starts from these.
 *
 * @example
 * const options = activityOptions(settings, NON_RETRYABLE_LLM_FAILURES);
 */
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

export function activityOptions(settings: LlmSettings, nonRetryableErrorTypes: string[], over: { maxAttempts?: number } = {}): ActivityOptions {
  return {
    taskQueue: settings.taskQueue,
    startToCloseTimeout: settings.startToCloseTimeoutMs,
    // Retries by time: every attempt of one call, waits included, within the window.
    scheduleToCloseTimeout: Math.max(settings.retryWindowMs, settings.startToCloseTimeoutMs),
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
