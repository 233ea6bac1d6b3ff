import { ApplicationFailure, CancellationScope, CancelledFailure, ContinueAsNew, isCancellation, patched, TemporalFailure, upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus } from '../../core/schemas/run-status';
import { GroveError } from '../../core/errors';
import { GroveBestScore, GroveCalls, GroveKind, GroveStatus, GroveTokens } from '../search-attributes';
import { retriesExhausted, type RetryBounds } from './give-up';
import { workflowTracing } from './telemetry-hook';
import { patchId } from '../patches';
import { RunFailure } from '../../core/failures';
import { shorten } from '../../core/conversation/preview';

export type { RunStatus } from '../../core/schemas/run-status';

/** What a run has spent when it ends: written with its final status, however it ends. */
export interface FinalCounters {
  calls?: number;
  tokens?: number;
  bestScore?: number;
}

/**
 * Runs started before grove recorded every ending (cancelled, invalid input, counters on
 * failure) replay without these search-attribute updates.
 */
export const ENDINGS_PATCH = patchId('grove-status-every-ending');

/**
 * Patch id: a run whose cancellation was requested ends `cancelled` even when what ended it was
 * a failure — a model call that timed out or failed before the cancellation reached it (an
 * activity learns of a cancellation only at its next heartbeat). Runs recorded before ended
 * `failed` with that call's error.
 */
export const CANCEL_WINS = patchId('grove-cancel-wins');

/**
 * Keeps the run's search attributes current so the Temporal UI can list and filter runs by
 * kind, status, calls, tokens and best score.
 */
export function reportRun(update: { kind?: string; status?: RunStatus; calls?: number; tokens?: number; bestScore?: number }): void {
  workflowTracing()?.runReported(update);
  const pairs = [];
  if (update.kind !== undefined) pairs.push({ key: GroveKind, value: update.kind });
  if (update.status !== undefined) pairs.push({ key: GroveStatus, value: update.status });
  if (update.calls !== undefined) pairs.push({ key: GroveCalls, value: update.calls });
  if (update.tokens !== undefined) pairs.push({ key: GroveTokens, value: update.tokens });
  if (update.bestScore !== undefined && Number.isFinite(update.bestScore)) pairs.push({ key: GroveBestScore, value: update.bestScore });
  if (pairs.length > 0) upsertSearchAttributes(pairs as Parameters<typeof upsertSearchAttributes>[0]);
}

/**
 * Re-raises a failure as a workflow failure whose message is the first application failure ("model "x" was
 * not found at ..."), so the UI and `grove` show what to fix instead of "Activity task failed";
 * the full chain stays attached as the cause. Either way the run's status and final counters are
 * written first: `failed`, or `cancelled` for a cancellation (rethrown as is, so the run ends as
 * cancelled) — and for any failure once the run's cancellation was requested. Continue-as-new passes through. (A terminated or timed-out run runs no more
 * workflow code: clients read those endings from Temporal's execution status.) A call that ran
 * out of retries says which bound ended it — the run's retry window or its attempts (`bounds`,
 * the run's `llm` settings) — and its last error (`retriesExhausted`).
 *
 * @example
 * try { ... } catch (err) { failRun(err, { calls: state.counters.llmCalls }, settings); }
 */
export function failRun(err: unknown, final: FinalCounters = {}, bounds?: RetryBounds): never {
  if (err instanceof ContinueAsNew) throw err;
  // The person asked to cancel: that is how the run ended, whatever the step in flight ended with.
  const cancelled = isCancellation(err) || (CancellationScope.current().consideredCancelled && patched(CANCEL_WINS));
  if (cancelled) {
    // Upserting search attributes is a command, not an await: a cancelled scope cannot stop it.
    if (patched(ENDINGS_PATCH)) reportRun({ status: 'cancelled', ...final });
    if (isCancellation(err)) throw err;
    const why = firstApplicationFailure(err)?.message ?? (err instanceof Error ? err.message : String(err));
    throw new CancelledFailure(`cancelled; the step in flight had ended first: ${shorten(why, 200)}`, [], err instanceof Error ? err : undefined);
  }
  reportRun(patched(ENDINGS_PATCH) ? { status: 'failed', ...final } : { status: 'failed' });
  const root = firstApplicationFailure(err);
  const gaveUp = bounds && retriesExhausted(err, bounds);
  // grove's own errors carry stable names (e.g. GroveEvaluationsFailed): the failure type callers match on.
  const type = gaveUp?.type ?? root?.type ?? (GroveError.isInstance(err) && err.name.startsWith('Grove') ? err.name : RunFailure.RunFailed);
  const message = gaveUp?.message ?? root?.message ?? (err instanceof Error ? err.message : String(err));
  throw ApplicationFailure.create({ message, type, nonRetryable: true, cause: err instanceof Error ? err : undefined });
}

/** The first ApplicationFailure in a failure chain: what an activity (or grove) said went wrong. */
export function firstApplicationFailure(err: unknown): ApplicationFailure | undefined {
  for (let f: unknown = err; f instanceof Error; f = (f as Error).cause) {
    if (f instanceof ApplicationFailure) return f;
    if (!(f instanceof TemporalFailure)) return undefined;
  }
  return undefined;
}

/** A short, single-line preview of a text for summaries: `'yellow'`, `'I think it is…'`. */
export function preview(text: string | null | undefined, max = 40): string {
  return `'${shorten(text ?? '', max)}'`;
}
