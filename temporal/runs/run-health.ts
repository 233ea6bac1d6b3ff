/**
 * Run health: what a running run is waiting on and whether it is in trouble — the one shape every
 * surface shows (`GroveClient.health`/`progress`/`list`, `grove progress`, `grove list`, the
 * progress line of `grove run`, the viewer). It is read from Temporal's description of the run
 * (its pending activities: attempts, last failure, next attempt), never from workflow state, so
 * a run stuck in retries says so even though its counters look healthy.
 *
 * Pure (types and formatting only): the viewer's page imports it too.
 */

/** `ok`: nothing failing; `retrying`: a step failed and is being retried; `stalled`: retrying (or waiting for a worker) longer than `stalledAfterMs`. */
export type HealthState = 'ok' | 'retrying' | 'stalled';

/** Default of `stalledAfterMs` (`GROVE_STALLED_AFTER_MS`): a step failing for this long marks its run stalled. */
export const DEFAULT_STALLED_AFTER_MS = 30_000;

/** One step the run is waiting on: an activity (a model call, a tool, an evaluation) or its own workflow task. */
export interface PendingStep {
  /** What it is, in a user's words: `model call`, `tool`, `evaluation`, …, `workflow task`; a user's own activity type as it is called. */
  kind: string;
  /** Temporal's activity type (`llmChat`), or `workflow task`. */
  activityType: string;
  activityId?: string;
  /** The step's one-line summary (as the Temporal UI shows it: `generate: 'Say hi!'`, `expand n3`), when known. */
  summary?: string;
  /** `running` an attempt is under way; `backoff` waiting to retry; `queued` waiting for a worker to take it; `paused`. */
  state: 'running' | 'backoff' | 'queued' | 'paused';
  /** The current (or next) attempt, from 1. */
  attempt: number;
  /** The attempt cap, when there is one. */
  maxAttempts?: number;
  /** When the step was first scheduled (ISO): failing "since". */
  since?: string;
  /** When the running attempt started (ISO). */
  attemptStartedAt?: string;
  /** The last attempt's failure: its type (`GroveNetworkError`) and message, one line, secrets redacted. */
  lastFailure?: { type: string; message: string };
  /** When the next attempt is due (ISO): while backing off, and for a queued step when it became due. */
  nextAttemptAt?: string;
  /** When the step gives up for good (ISO): its retry window closes. */
  expiresAt?: string;
  /** The task queue it waits on, when it waits for a worker. */
  taskQueue?: string;
}

export interface RunHealth {
  state: HealthState;
  /** What the run waits on, steps in trouble first. */
  pending: PendingStep[];
  /** The threshold this health was judged with (ms). */
  stalledAfterMs: number;
  /** When it was read (ISO). */
  checkedAt: string;
  /** `formatHealth` at `checkedAt`: one line, empty when `ok` (`stalled: model call … 8 failed attempts since 13:02:11, last: …; next attempt in 12 s`). */
  line: string;
}

/** Whether a step is in trouble: it failed before, or it waited for a worker longer than the threshold. */
export function stepTrouble(step: PendingStep, nowMs: number, stalledAfterMs: number): HealthState {
  const since = step.since ? Date.parse(step.since) : nowMs;
  const failing = step.attempt > 1 || step.lastFailure !== undefined;
  if (failing) return nowMs - since >= stalledAfterMs ? 'stalled' : 'retrying';
  if (step.state === 'queued' && nowMs - since >= stalledAfterMs) return 'stalled';
  return 'ok';
}

const RANK: Record<HealthState, number> = { ok: 0, retrying: 1, stalled: 2 };

/**
 * A run's health from the steps it waits on, judged at `nowMs`: its worst step's state, steps in
 * trouble first (longest in trouble first), and the one line that says so.
 *
 * @example
 * const health = judgeHealth(steps, Date.now(), 30_000);
 * health.line; // "stalled: model call (llmChat) generate: 'hi' — 8 failed attempts since 13:02:11, last: GroveNetworkError: …; next attempt in 12 s"
 */
export function judgeHealth(steps: PendingStep[], nowMs: number, stalledAfterMs = DEFAULT_STALLED_AFTER_MS): RunHealth {
  const judged = steps.map((step) => ({ step, trouble: stepTrouble(step, nowMs, stalledAfterMs) }));
  judged.sort((a, b) => RANK[b.trouble] - RANK[a.trouble] || (a.step.since ?? '').localeCompare(b.step.since ?? ''));
  const state = judged.reduce<HealthState>((worst, j) => (RANK[j.trouble] > RANK[worst] ? j.trouble : worst), 'ok');
  const health: RunHealth = { state, pending: judged.map((j) => j.step), stalledAfterMs, checkedAt: new Date(nowMs).toISOString(), line: '' };
  return { ...health, line: formatHealth(health, nowMs) };
}

/**
 * One line for a run in trouble, at `nowMs` (empty when it is not): its state, then its worst
 * step (`formatStep`), then how many more steps are in trouble.
 *
 * @example
 * formatHealth(health, Date.now()); // 'retrying: model call (llmChat) — 2 failed attempts since 13:02:11, last: GroveRateLimited: …; next attempt in 2 s'
 */
export function formatHealth(health: Pick<RunHealth, 'state' | 'pending' | 'stalledAfterMs'>, nowMs: number): string {
  const trouble = formatTrouble(health, nowMs);
  return trouble ? `${health.state}: ${trouble}` : '';
}

/** `formatHealth` without the state in front, for a table that shows the state in a column of its own. */
export function formatTrouble(health: Pick<RunHealth, 'state' | 'pending' | 'stalledAfterMs'>, nowMs: number): string {
  if (health.state === 'ok' || health.pending.length === 0) return '';
  const more = health.pending.filter((s) => stepTrouble(s, nowMs, health.stalledAfterMs) !== 'ok').length - 1;
  return `${formatStep(health.pending[0], nowMs)}${more > 0 ? ` (+${more} more step${more === 1 ? '' : 's'} in trouble)` : ''}`;
}

/**
 * One step in one line: what it is, its attempts and since when, its last failure, and what
 * happens next.
 *
 * @example
 * formatStep(step, Date.now()); // "model call (llmChat) generate: 'hi' — 8 failed attempts since 13:02:11, last: GroveNetworkError: cannot reach …; next attempt in 12 s"
 */
export function formatStep(step: PendingStep, nowMs: number): string {
  const what = `${step.kind}${step.kind !== step.activityType ? ` (${step.activityType})` : ''}${step.summary ? ` ${step.summary}` : ''}`;
  const since = step.since ? ` since ${clock(step.since)}` : '';
  // `attempt` is the running or the next attempt: the ones before it failed.
  const failed = Math.max(step.attempt - 1, step.lastFailure ? 1 : 0);
  const tried = failed > 0 ? `${failed} failed attempt${failed === 1 ? '' : 's'}${step.maxAttempts ? ` (at most ${step.maxAttempts})` : ''}${since}` : `scheduled${since}`;
  const last = step.lastFailure ? `, last: ${step.lastFailure.type}: ${clip(step.lastFailure.message, 200)}` : '';
  return `${what} — ${tried}${last}; ${next(step, nowMs)}`;
}

/** How long a due step may wait for a worker before grove says no worker is taking it. */
const QUEUED_GRACE_MS = 5_000;

function next(step: PendingStep, nowMs: number): string {
  switch (step.state) {
    case 'backoff':
      // Rounded up: an attempt due in 0.3 s is "in 1 s", not "in 0 s".
      return step.nextAttemptAt ? `next attempt in ${duration(Math.ceil((Date.parse(step.nextAttemptAt) - nowMs) / 1000) * 1000)}` : 'next attempt soon';
    case 'running':
      return `attempt ${step.attempt} running${step.attemptStartedAt ? ` for ${duration(nowMs - Date.parse(step.attemptStartedAt))}` : ''}`;
    case 'paused':
      return 'paused';
    case 'queued': {
      // Due a moment ago: a worker is about to take it. Due for longer: no worker is taking it.
      const due = step.nextAttemptAt ?? step.since;
      const waited = due ? nowMs - Date.parse(due) : 0;
      if (waited < QUEUED_GRACE_MS) return step.attempt > 1 ? 'next attempt due now' : 'about to start';
      return `waiting ${duration(waited)} for a worker${step.taskQueue ? ` on task queue "${step.taskQueue}"` : ''}`;
    }
  }
}

/** `12 s`, `4 min 5 s`, `2 h 3 min`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
}

/** The local time of day of an ISO time, `13:02:11`. */
export function clock(iso: string): string {
  const d = new Date(iso);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
