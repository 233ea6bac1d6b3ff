import { z } from 'zod';

/**
 * How a run schedules its model calls as activities: timeouts and Temporal retries. The
 * defaults suit hosted APIs: a slow answer may take minutes, a dead worker is noticed within
 * the heartbeat timeout, and transient failures (429, 5xx, network) are retried with
 * exponential backoff for about ten minutes before the run gives up.
 */
export const LlmSettingsSchema = z.strictObject({
  /** Task queue of the workers that make model calls; the workflow's own queue when omitted. */
  taskQueue: z.string().min(1).optional().describe("Task queue of the workers that make model calls (default the run's own)."),
  startToCloseTimeoutMs: z.number().int().positive().default(600_000).describe('Longest one model call may take, in milliseconds.'),
  heartbeatTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(30_000)
    .describe('How soon a call whose worker died is retried on another worker, in milliseconds.'),
  maxAttempts: z.number().int().min(1).default(10).describe('Attempts of a call that fails retryably (429, 5xx, timeouts) before the run fails.'),
  initialRetryMs: z.number().int().positive().default(1_000).describe('First retry delay, in milliseconds (doubling; a Retry-After header wins).'),
  maxRetryIntervalMs: z.number().int().positive().default(60_000).describe('Longest retry delay, in milliseconds.'),
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
