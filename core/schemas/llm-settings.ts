import { z } from 'zod';

/**
 * How a run schedules its model calls as activities: timeouts and Temporal retries. The
 * defaults suit hosted APIs: a slow answer may take minutes, a dead worker is noticed within
 * the heartbeat timeout, and transient failures (429, 5xx, network) are retried with
 * exponential backoff for about ten minutes before the run gives up.
 */
export const LlmSettingsSchema = z.strictObject({
  /** Task queue of the workers that make model calls; the workflow's own queue when omitted. */
  taskQueue: z.string().min(1).optional(),
  startToCloseTimeoutMs: z.number().int().positive().default(600_000),
  heartbeatTimeoutMs: z.number().int().positive().default(30_000),
  maxAttempts: z.number().int().min(1).default(10),
  initialRetryMs: z.number().int().positive().default(1_000),
  maxRetryIntervalMs: z.number().int().positive().default(60_000),
  /**
   * Who may reuse this run's paid results: `lineage` — runs that descend from it (a retry, a
   * reset, a resume); `shared` — also any other run that makes exactly the same request (a cache
   * across runs, for pipelines that want reproducible answers rather than fresh samples).
   */
  reuse: z.enum(['lineage', 'shared']).default('lineage'),
});
export type LlmSettings = z.infer<typeof LlmSettingsSchema>;
export type LlmSettingsInput = z.input<typeof LlmSettingsSchema>;
