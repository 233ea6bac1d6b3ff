import { Context } from '@temporalio/activity';
import { msOptionalToNumber } from '@temporalio/common/lib/time';

/**
 * The current activity's context, or undefined when the function runs outside a Temporal
 * activity (in-process runs and benchmarks call the same functions directly).
 */
export function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/** The current activity's longest retry interval (its retry policy's `maximumInterval`), when known. */
export function activityMaxRetryIntervalMs(): number | undefined {
  return msOptionalToNumber(activityContext()?.info.retryPolicy?.maximumInterval);
}

/**
 * Heartbeats while `work` runs, so a worker that dies mid-call is noticed after the heartbeat
 * timeout rather than the whole start-to-close timeout: every `intervalMs`, and at least three
 * times per heartbeat timeout — a run with `llm.heartbeatTimeoutMs: 1000` would otherwise have
 * every call longer than a second declared dead while it runs, and retried (and paid) beside it.
 */
export async function withHeartbeats<T>(intervalMs: number, details: unknown, work: () => Promise<T>): Promise<T> {
  const ctx = activityContext();
  if (!ctx || ctx.info.isLocal) return work(); // a local activity cannot heartbeat (and needs not: it runs beside its workflow)
  ctx.heartbeat(details);
  const timeoutMs = ctx.info.heartbeatTimeoutMs;
  const timer = setInterval(() => ctx.heartbeat(details), timeoutMs ? Math.max(50, Math.min(intervalMs, Math.floor(timeoutMs / 3))) : intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
