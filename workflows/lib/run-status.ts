import { ApplicationFailure, ContinueAsNew, isCancellation, TemporalFailure, upsertSearchAttributes } from '@temporalio/workflow';
import { GroveBestScore, GroveCalls, GroveKind, GroveStatus, GroveTokens } from '../search-attributes';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'exhausted';

/**
 * Keeps the run's search attributes current so the Temporal UI can list and filter runs by
 * kind, status, calls, tokens and best score.
 */
export function reportRun(update: { kind?: string; status?: RunStatus; calls?: number; tokens?: number; bestScore?: number }): void {
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
 * the full chain stays attached as the cause. Continue-as-new and cancellation pass through.
 */
export function failRun(err: unknown): never {
  if (err instanceof ContinueAsNew || isCancellation(err)) throw err;
  reportRun({ status: 'failed' });
  const root = firstApplicationFailure(err);
  const type = root?.type ?? 'GroveRunFailed';
  const message = root?.message ?? (err instanceof Error ? err.message : String(err));
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
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return `'${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}'`;
}
