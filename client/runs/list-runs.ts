import { liveFigures, waitingLine, type LiveFigures } from '../../temporal/runs/live-figures';
import type { Client } from '@temporalio/client';
import { kindClause } from '../../core/runs/run-kind-names';
import { RUN_STATUSES, type RunStatus } from '../../core/schemas/run-status';
import { mapLimit } from '../../core/agents/map-limit';
import { readRunHealth, type HealthOptions } from '../../temporal/runs/read-run-health';
import { stateFromInfo, type RunState } from './run-state';

export interface ListRunsOptions {
  /** Only runs with this status (as grove reports it: Temporal's status wins, see `RunState`). */
  status?: RunStatus;
  /** Only runs of this kind: `generate`, `airetry`, `code-fixer`, `session`, `agent` (every algorithm) or `agent:mcts`. */
  kind?: string;
  /** At most this many runs, newest first (default 20). */
  limit?: number;
  /** Any extra visibility query, ANDed with the above (e.g. `StartTime > "2025-01-01T00:00:00Z"`). */
  query?: string;
  /** How running runs' health is judged (`RunState.health`); `false` skips it (one describe per running run). */
  health?: HealthOptions | false;
}

/** How each grove status is found in Temporal's visibility store. */
const STATUS_QUERY: Record<RunStatus, string> = {
  running: 'ExecutionStatus = "Running"',
  succeeded: 'ExecutionStatus = "Completed" AND GroveStatus = "succeeded"',
  exhausted: 'ExecutionStatus = "Completed" AND GroveStatus = "exhausted"',
  stopped: 'ExecutionStatus = "Completed" AND GroveStatus = "stopped"',
  failed: 'ExecutionStatus = "Failed"',
  cancelled: 'ExecutionStatus = "Canceled"',
  terminated: 'ExecutionStatus = "Terminated"',
  timedOut: 'ExecutionStatus = "TimedOut"',
};

/**
 * The visibility query for `listRuns`' filters: grove's runs (those with a `GroveKind`), by
 * status and kind.
 *
 * @example
 * runsQuery({ status: 'failed', kind: 'agent' }); // 'GroveKind IS NOT NULL AND ExecutionStatus = "Failed" AND GroveKind STARTS_WITH "agent"'
 */
export function runsQuery(opts: Omit<ListRunsOptions, 'limit' | 'health'> = {}): string {
  const parts = ['GroveKind IS NOT NULL'];
  if (opts.status) {
    if (!RUN_STATUSES.includes(opts.status)) throw new RangeError(`unknown status "${opts.status}" (${RUN_STATUSES.join(', ')})`);
    parts.push(STATUS_QUERY[opts.status]);
  }
  if (opts.kind) parts.push(kindClause(opts.kind));
  if (opts.query) parts.push(`(${opts.query})`);
  return parts.join(' AND ');
}

/**
 * Runs from Temporal's visibility store, newest first, one per workflow id (its newest run: a
 * resumed run's reset and a search's continue-as-new runs share the id), with status, calls,
 * best score and times, and for running runs their health (retrying, stalled: `RunState.health`).
 * A status filter uses Temporal's execution status, so terminated and timed-out runs (whose
 * `GroveStatus` still says `running`) are listed as what they are.
 *
 * @example
 * for (const run of await listRuns(client, { status: 'failed', limit: 10 })) console.log(run.workflowId, run.reason);
 */
export async function listRuns(client: Client, opts: ListRunsOptions = {}): Promise<RunState[]> {
  const limit = opts.limit ?? 20;
  const runs = new Map<string, RunState>();
  for await (const info of client.workflow.list({ query: runsQuery(opts), pageSize: Math.min(limit, 1000) })) {
    // One line per workflow id: its newest run (a resumed run's reset, a continued search). With a
    // status filter a matching run may have been superseded (a failed run since resumed): skip it.
    if (runs.has(info.workflowId)) continue;
    if (opts.status && (await client.workflow.getHandle(info.workflowId).describe()).runId !== info.runId) continue;
    runs.set(info.workflowId, stateFromInfo(info));
    if (runs.size >= limit) break;
  }
  const health = opts.health;
  if (health === false) return [...runs.values()];
  return mapLimit([...runs.values()], 8, async (run) => (run.temporalStatus === 'RUNNING' ? withHealth(client, run, health) : run));
}

/** A running run's counters as its workers know them now (its search attributes are only its last report). */
export function liveState(run: RunState, live: LiveFigures | undefined): Partial<RunState> {
  if (!live) return {};
  const { modelCalls, tokens, best } = live.figures;
  const waiting = waitingLine(run.workflowId, live.waiting);
  return { calls: modelCalls ?? run.calls, tokens: tokens ?? run.tokens, bestScore: best ?? run.bestScore, ...(waiting ? { waiting } : {}) };
}

/** A running run with its health (what it waits on, whether it is in trouble): one describe, and a history page when it is. */
export async function withHealth(client: Client, run: RunState, opts: HealthOptions = {}): Promise<RunState> {
  try {
    const description = await client.workflow.getHandle(run.workflowId, run.runId).describe();
    const [health, live] = await Promise.all([readRunHealth(client, description, opts), liveFigures(client, run.workflowId, run.kind)]);
    return { ...run, ...liveState(run, live), health };
  } catch {
    return run; // it closed meanwhile, or the server did not answer: the list still shows it
  }
}
