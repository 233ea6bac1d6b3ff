import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { canonicalKind } from '../../core/runs/run-kind-names';
import { plural } from '../../core/runs/run-figures';
import type { RunStatus } from '../../core/schemas/run-status';
import { GroveBestScore, GroveCalls, GroveKind, GroveStatus, GroveTokens } from '../../workflows/search-attributes';
import { readRunHealth, type HealthOptions } from '../../temporal/runs/read-run-health';
import type { RunHealth } from '../../temporal/runs/run-health';

/**
 * A run as grove reports it: the truth about how it ended, and what it spent.
 *
 * `status` combines what the workflow recorded (`GroveStatus`) with Temporal's execution status,
 * which wins whenever they disagree: a terminated or timed-out run runs no more workflow code, so
 * its `GroveStatus` still says what it last recorded (usually `running`); `derived` is true when
 * the status was read from Temporal rather than from the run itself.
 */
export interface RunState {
  workflowId: string;
  runId: string;
  workflowType: string;
  /** `GroveKind` (`agent:mcts`, `airetry`, `code-fixer`), else the workflow type; a former name is read as the current one. */
  kind: string;
  status: RunStatus;
  /** True when `status` comes from Temporal's execution status, not from the workflow. */
  derived: boolean;
  /** What the workflow itself last recorded, if anything. */
  groveStatus?: string;
  /** Temporal's execution status name: `RUNNING`, `COMPLETED`, `FAILED`, `CANCELLED`, `TERMINATED`, `TIMED_OUT`. */
  temporalStatus: string;
  calls?: number;
  tokens?: number;
  bestScore?: number;
  taskQueue: string;
  startTime: Date;
  closeTime?: Date;
  /** Why it ended, for failed, terminated, timed-out and cancelled runs (read from the closing event). */
  reason?: string;
  /** The failure type, e.g. `GroveModelNotFound`, for failed runs. */
  failureType?: string;
  /** For a running run waiting for a person: who must do what (`waiting for approval of save_note (call c1, turn 1): grove approve chat-1`). */
  waiting?: string;
  /** For a running run: what it waits on and whether it is in trouble (retrying, stalled). */
  health?: RunHealth;
}

/**
 * The status of a run from its Temporal execution status and what it recorded itself.
 *
 * @example
 * runStatusOf('TERMINATED', 'running'); // { status: 'terminated', derived: true }
 */
export function runStatusOf(temporalStatus: string, groveStatus: string | undefined): { status: RunStatus; derived: boolean } {
  switch (temporalStatus) {
    case 'COMPLETED':
      if (groveStatus === 'exhausted' || groveStatus === 'stopped') return { status: groveStatus, derived: false };
      return { status: 'succeeded', derived: groveStatus !== 'succeeded' };
    case 'FAILED':
      return { status: 'failed', derived: groveStatus !== 'failed' && groveStatus !== 'exhausted' && groveStatus !== 'stopped' };
    case 'CANCELLED':
      return { status: 'cancelled', derived: groveStatus !== 'cancelled' };
    case 'TERMINATED':
      return { status: 'terminated', derived: true };
    case 'TIMED_OUT':
      return { status: 'timedOut', derived: true };
    default:
      return { status: 'running', derived: groveStatus !== 'running' };
  }
}

/** A run's state from a visibility record (`list`) or a description (`describe`), without its closing reason. */
export function stateFromInfo(info: Omit<WorkflowExecutionInfo, 'raw'>): RunState {
  const sa = info.typedSearchAttributes;
  const groveStatus = sa.get(GroveStatus);
  const { status, derived } = runStatusOf(info.status.name, groveStatus);
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.type,
    kind: canonicalKind(sa.get(GroveKind) ?? info.type),
    status,
    derived,
    groveStatus,
    temporalStatus: info.status.name,
    calls: sa.get(GroveCalls),
    tokens: sa.get(GroveTokens),
    bestScore: sa.get(GroveBestScore),
    taskQueue: info.taskQueue,
    startTime: info.startTime,
    closeTime: info.closeTime,
  };
}

/**
 * The state of a run (its latest run), with the reason it ended read from its closing event.
 *
 * @example
 * const state = await runState(client, 'agent-1a2b');
 * describeRunState(state); // 'failed after 15 model calls: model "x" was not found ...'
 */
export async function runState(client: Client, workflowId: string, runId?: string, health: HealthOptions = {}): Promise<RunState> {
  const description = await client.workflow.getHandle(workflowId, runId).describe();
  const state = stateFromInfo(description);
  if (state.temporalStatus === 'RUNNING') return { ...state, health: await readRunHealth(client, description, health) };
  if (state.temporalStatus === 'COMPLETED') return state;
  return { ...state, ...(await closingReason(client, workflowId, state.runId)) };
}

/** Why a closed run ended: the failure message and type, the termination reason, or the timeout. */
async function closingReason(client: Client, workflowId: string, runId: string): Promise<{ reason?: string; failureType?: string }> {
  const page = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  const event = page.history?.events?.[0];
  if (!event) return {};
  const failed = event.workflowExecutionFailedEventAttributes;
  if (failed) {
    return {
      reason: failed.failure?.message?.split('\n')[0] ?? 'the run failed',
      failureType: failed.failure?.applicationFailureInfo?.type ?? undefined,
    };
  }
  const terminated = event.workflowExecutionTerminatedEventAttributes;
  if (terminated) return { reason: terminated.reason || 'no reason given' };
  if (event.workflowExecutionTimedOutEventAttributes) return { reason: "it ran past its execution or run timeout (the start option `workflowExecutionTimeout`/`workflowRunTimeout`)" };
  if (event.workflowExecutionCanceledEventAttributes) return { reason: 'a cancellation was requested' };
  return {};
}

/**
 * One plain sentence for a run's state, saying where the status comes from when the workflow
 * could not record it.
 *
 * @example
 * describeRunState(state); // 'cancelled after 12 model calls'
 */
export function describeRunState(state: RunState): string {
  const spent = state.calls !== undefined ? ` after ${plural(state.calls, 'model call')}` : '';
  const from = state.derived && state.status !== 'running' ? ' (Temporal execution status; the run could not record it itself)' : '';
  const best = state.bestScore !== undefined ? ` (best score ${state.bestScore.toFixed(2)})` : '';
  switch (state.status) {
    case 'running':
      return `running${state.calls !== undefined ? `: ${plural(state.calls, 'model call')} so far` : ''}${state.health?.line ? ` — ${state.health.line}` : ''}`;
    case 'succeeded':
      return `succeeded${spent}`;
    case 'exhausted':
      return `finished without a solution${spent}${best}`;
    case 'stopped':
      return `stopped by a person before it found a solution${spent}${best}`;
    case 'failed':
      return `failed${spent}: ${state.reason ?? 'unknown reason'}${state.failureType ? ` (${state.failureType})` : ''}`;
    case 'cancelled':
      return `cancelled${spent}`;
    case 'terminated':
      return `terminated${recorded(state)}: ${state.reason ?? 'no reason given'}${from}`;
    case 'timedOut':
      return `timed out${recorded(state)}: ${state.reason ?? ''}${from}`;
  }
}

/** A run that ended without running workflow code last recorded its counters some steps earlier. */
function recorded(state: RunState): string {
  return state.calls !== undefined ? ` after at least ${plural(state.calls, 'model call')} (its last report)` : '';
}
