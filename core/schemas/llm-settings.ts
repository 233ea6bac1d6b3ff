import { z } from 'zod';

const DAY_MS = 86_400_000;

/**
 * How a run schedules its model calls as activities: timeouts and Temporal retries. The
 * defaults suit hosted APIs: a slow answer may take minutes, a dead worker is noticed within
 * the heartbeat timeout, and transient failures (429, 5xx, network) are retried with
 * exponential backoff — by time, not by count: each call keeps trying for `retryWindowMs`
 * (20 minutes) whatever the provider's error rate, then the run gives up. `maxAttempts` can
 * additionally cap the attempts (0, the default, means no cap within the window).
 */
export const LlmSettingsSchema = z.strictObject({
  /** Task queue of the workers that make model calls; the workflow's own queue when omitted. */
  taskQueue: z.string().min(1).optional(),
  /** One attempt's time limit. */
  startToCloseTimeoutMs: z.number().int().positive().max(DAY_MS).default(600_000),
  heartbeatTimeoutMs: z.number().int().positive().max(DAY_MS).default(30_000),
  /** How long one call keeps retrying transient failures, all attempts together. */
  retryWindowMs: z.number().int().positive().max(7 * DAY_MS).default(1_200_000),
  maxAttempts: z.number().int().min(0).max(10_000).default(0),
  initialRetryMs: z.number().int().positive().max(DAY_MS).default(1_000),
  /** The longest wait between attempts; a provider's `Retry-After` is honoured up to this. */
  maxRetryIntervalMs: z.number().int().positive().max(DAY_MS).default(60_000),
  /**
   * Who may reuse this run's paid results: `lineage` — runs that descend from it (a retry, a
   * reset, a resume); `shared` — also any other run that makes exactly the same request (a cache
   * across runs, for pipelines that want reproducible answers rather than fresh samples).
   */
  reuse: z.enum(['lineage', 'shared']).default('lineage'),
});
export type LlmSettings = z.infer<typeof LlmSettingsSchema>;
export type LlmSettingsInput = z.input<typeof LlmSettingsSchema>;
