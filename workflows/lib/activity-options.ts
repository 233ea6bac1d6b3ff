import type { ActivityOptions } from '@temporalio/workflow';
import type { LlmSettings } from '../../core/schemas/llm-settings';

/**
 * Activity options from a run's LLM settings: timeouts, and exponential-backoff retries within
 * the retry window that stop at once on the given failure types. Every grove activity proxy
 * starts from these.
 *
 * @example
 * const options = activityOptions(settings, NON_RETRYABLE_LLM_FAILURES);
 */
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
