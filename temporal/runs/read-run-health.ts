import type { Client } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { activityKind } from '../../core/runs/activity-kinds';
import { redactLine } from './redact-line';
import { payloadText } from './activity-summary';
import { DEFAULT_STALLED_AFTER_MS, judgeHealth, stepTrouble, type PendingStep, type RunHealth } from './run-health';

type Description = temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse;
type Failure = temporal.api.failure.v1.IFailure;

export interface HealthOptions {
  /** A step failing (or waiting for a worker) this long marks the run stalled; default `GROVE_STALLED_AFTER_MS` or 30 s. */
  stalledAfterMs?: number;
  /** The time to judge at (tests); default now. */
  nowMs?: number;
}

/** What a step's scheduling event says (its summary, when it was first scheduled): per run and activity id, never changes. */
const scheduling = new Map<string, { summary?: string; since?: string }>();

/**
 * A run's health from Temporal's description of it (`describe().raw`): its pending activities
 * and workflow task, with attempts, last failures and next attempts. When a step is in trouble,
 * the newest page of the run's history adds what the Temporal UI shows for it (its summary) and
 * when it was first scheduled. Nothing is read from the workflow itself: a run whose worker is
 * busy failing still answers.
 *
 * @example
 * const d = await client.workflow.getHandle('agent-1a2b').describe();
 * const health = await readRunHealth(client, { workflowId: d.workflowId, runId: d.runId, taskQueue: d.taskQueue, raw: d.raw });
 */
export async function readRunHealth(
  client: Client,
  run: { workflowId: string; runId: string; taskQueue: string; raw: Description },
  opts: HealthOptions = {},
): Promise<RunHealth> {
  const nowMs = opts.nowMs ?? Date.now();
  const stalledAfterMs = opts.stalledAfterMs ?? stalledAfterMsFromEnv();
  const steps = pendingSteps(run.raw, run.taskQueue, nowMs, stalledAfterMs);
  const troubled = steps.filter((s) => stepTrouble(s, nowMs, stalledAfterMs) !== 'ok');
  if (troubled.some((s) => (s.activityId === undefined ? s.attempt > 1 : !scheduling.has(`${run.runId}/${s.activityId}`)))) {
    await readScheduling(client, run, steps);
  }
  for (const step of steps) {
    const known = scheduling.get(`${run.runId}/${step.activityId}`);
    if (known?.summary) step.summary = known.summary;
    if (known?.since) step.since = known.since;
  }
  return judgeHealth(steps, nowMs, stalledAfterMs);
}

/** `GROVE_STALLED_AFTER_MS`, else 30 s. */
export function stalledAfterMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.GROVE_STALLED_AFTER_MS);
  return env.GROVE_STALLED_AFTER_MS && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_STALLED_AFTER_MS;
}

const STATES: Record<number, PendingStep['state']> = { 2: 'running', 3: 'running', 4: 'paused', 5: 'paused' };

function pendingSteps(raw: Description, runQueue: string, nowMs: number, stalledAfterMs: number): PendingStep[] {
  const steps = (raw.pendingActivities ?? []).map((a): PendingStep => {
    const type = a.activityType?.name ?? 'activity';
    const attempt = a.attempt ?? 1;
    const next = optionalTsToMs(a.nextAttemptScheduleTime);
    const state = STATES[Number(a.state)] ?? (attempt > 1 && next !== undefined && next > nowMs ? 'backoff' : 'queued');
    const expires = optionalTsToMs(a.expirationTime);
    const window = durationMs(a.activityOptions?.scheduleToCloseTimeout);
    // The first scheduling, until history says: the window's end less the window, else this attempt's scheduling.
    const since = expires !== undefined && window ? expires - window : attempt === 1 ? optionalTsToMs(a.scheduledTime) : undefined;
    const started = optionalTsToMs(a.lastStartedTime);
    return {
      kind: activityKind(type),
      activityType: type,
      ...(a.activityId ? { activityId: a.activityId } : {}),
      state,
      attempt,
      ...(a.maximumAttempts ? { maxAttempts: a.maximumAttempts } : {}),
      ...(since !== undefined ? { since: iso(since) } : {}),
      ...(state === 'running' && started !== undefined ? { attemptStartedAt: iso(started) } : {}),
      ...(a.lastFailure ? { lastFailure: failureOf(a.lastFailure) } : {}),
      ...(state === 'backoff' || state === 'queued' ? dueAt(next ?? optionalTsToMs(a.scheduledTime)) : {}),
      ...(expires !== undefined ? { expiresAt: iso(expires) } : {}),
      ...(state === 'queued' ? { taskQueue: a.activityOptions?.taskQueue?.name ?? runQueue } : {}),
    };
  });
  // The run's own code: shown when it fails (attempt > 1) or no worker has taken it for a while.
  const task = raw.pendingWorkflowTask;
  const taskSince = optionalTsToMs(task?.originalScheduledTime) ?? optionalTsToMs(task?.scheduledTime);
  const running = Number(task?.state) === 2;
  if (task && ((task.attempt ?? 1) > 1 || (!running && taskSince !== undefined && nowMs - taskSince >= stalledAfterMs))) {
    const started = optionalTsToMs(task.startedTime);
    steps.push({
      kind: 'workflow task',
      activityType: 'workflow task',
      state: running ? 'running' : 'queued',
      attempt: task.attempt ?? 1,
      ...(taskSince !== undefined ? { since: iso(taskSince) } : {}),
      ...(running && started !== undefined ? { attemptStartedAt: iso(started) } : {}),
      ...(!running ? { taskQueue: runQueue, ...dueAt(optionalTsToMs(task.scheduledTime)) } : {}),
    });
  }
  return steps;
}

/** The failure of an attempt as status shows it: its type and first line, redacted. */
function failureOf(f: Failure): { type: string; message: string } {
  const timeout = f.timeoutFailureInfo?.timeoutType;
  const type = f.applicationFailureInfo?.type || (timeout ? 'TimeoutFailure' : f.canceledFailureInfo ? 'CancelledFailure' : 'Failure');
  return { type, message: redactLine(f.message ?? '') };
}

/** The newest history page: each pending activity's scheduling event (summary, time), and a failing workflow task's last failure. */
async function readScheduling(client: Client, run: { workflowId: string; runId: string }, steps: PendingStep[]): Promise<void> {
  const page = await client.workflowService
    .getWorkflowExecutionHistoryReverse({ namespace: client.options.namespace, execution: { workflowId: run.workflowId, runId: run.runId }, maximumPageSize: 500 })
    .catch(() => undefined);
  if (!page) return;
  const wanted = new Set(steps.map((s) => s.activityId).filter((id): id is string => id !== undefined));
  const task = steps.find((s) => s.activityId === undefined && s.attempt > 1);
  for (const event of page.history?.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityId && wanted.delete(scheduled.activityId)) {
      const at = optionalTsToMs(event.eventTime);
      remember(`${run.runId}/${scheduled.activityId}`, { summary: payloadText(client, event.userMetadata?.summary), since: at !== undefined ? iso(at) : undefined });
    }
    const failed = event.workflowTaskFailedEventAttributes;
    if (failed?.failure && task && !task.lastFailure) task.lastFailure = failureOf(failed.failure);
  }
  // Scheduled before the newest page: no summary to show, and no need to look again.
  for (const id of wanted) remember(`${run.runId}/${id}`, {});
}

function remember(key: string, value: { summary?: string; since?: string }): void {
  scheduling.set(key, value);
  if (scheduling.size > 2_000) scheduling.delete(scheduling.keys().next().value!);
}

function dueAt(ms: number | undefined): { nextAttemptAt?: string } {
  return ms !== undefined ? { nextAttemptAt: iso(ms) } : {};
}

function durationMs(d: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined {
  return d ? Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6) : undefined;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
