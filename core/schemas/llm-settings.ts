import { z } from 'zod';

const DAY_MS = 86_400_000;

/**
 * How a run schedules its model calls as activities: timeouts and Temporal retries. The
 * defaults suit hosted APIs: a slow answer may take minutes, a dead worker is noticed within
 * the heartbeat timeout, and transient failures (429, 5xx, network) are retried with
 * exponential backoff — by time, not by count: `retryWindowMs` (20 minutes) bounds every
 * attempt and wait of one call together whatever the provider's error rate, and one attempt
 * never outlives it (`startToCloseTimeoutMs` is cut to the window); then the run gives up with
 * the call's last error. `maxAttempts` can additionally cap the attempts (0, the default, means
 * no cap within the window).
 */
export const LlmSettingsSchema = z.strictObject({
  /** Task queue of the workers that make model calls; the workflow's own queue when omitted. */
  taskQueue: z.string().min(1).optional().describe("Task queue of the workers that make model calls (default the run's own)."),
  startToCloseTimeoutMs: z.number().int().positive().max(DAY_MS).default(600_000).describe('Longest one attempt of a model call may take, in milliseconds (never longer than retryWindowMs).'),
  heartbeatTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(DAY_MS)
    .default(30_000)
    .describe('How soon a call whose worker died is retried on another worker, in milliseconds.'),
  retryWindowMs: z
    .number()
    .int()
    .positive()
    .max(7 * DAY_MS)
    .default(1_200_000)
    .describe('How long one call may take, every attempt and every wait between attempts together, in milliseconds: transient failures (429, 5xx, timeouts) are retried within it, then the run fails with the last error.'),
  maxAttempts: z.number().int().min(0).max(10_000).default(0).describe('Caps the attempts of one call as well; 0 means no cap within the retry window.'),
  initialRetryMs: z.number().int().positive().max(DAY_MS).default(1_000).describe('First retry delay, in milliseconds (doubling; a Retry-After header wins, up to maxRetryIntervalMs).'),
  maxRetryIntervalMs: z.number().int().positive().max(DAY_MS).default(60_000).describe("Longest retry delay, in milliseconds; a provider's Retry-After is honoured up to this."),
  /**
   * Who may reuse this run's paid results: `lineage` — runs that descend from it (a retry, a
   * reset, a resume); `shared` — also any other run that makes exactly the same request (a cache
   * across runs, for pipelines that want reproducible answers rather than fresh samples).
   */
  reuse: z
    .enum(['lineage', 'shared'])
    .default('lineage')
    .describe("Who reuses this run's paid results: 'lineage' its retries, resets and resumes; 'shared' also any run making exactly the same request."),
});
export type LlmSettings = z.infer<typeof LlmSettingsSchema>;
export type LlmSettingsInput = z.input<typeof LlmSettingsSchema>;
