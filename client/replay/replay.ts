import type { Client } from '@temporalio/client';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { bundleGroveWorkflows } from '../../workers/workflow-bundle';
import { eventInTask, eventTypeName, historyPrefix, nondeterminismMessage, parseNondeterminism, workflowTasks, type Divergence, type History } from './divergence';
import { firstLine } from '../../core/first-line';

export type { Divergence } from './divergence';

export interface ReplayOptions {
  /** The workflow code to check: a bundle (`{ codePath }` or `{ code }`), as workers run it. */
  workflowBundle?: ReplayWorkerOptions['workflowBundle'];
  /** Else the workflows file to bundle (default grove's `workflows/index.ts`, as `grove worker` serves). */
  workflowsPath?: string;
  /** Sinks the workflow code calls (a traced bundle's: a replay calls none of them, but they must exist). */
  sinks?: ReplayWorkerOptions['sinks'];
}

/** What replaying one run against the current code found. */
export interface ReplayReport {
  workflowId: string;
  runId?: string;
  workflowType?: string;
  /** True when the code makes exactly the decisions the history recorded. */
  ok: boolean;
  /** Events in the history, and workflow tasks (batches of decisions) among them. */
  events: number;
  workflowTasks: number;
  /** Replay time, in milliseconds. */
  ms: number;
  /** Where the code first decides differently (a nondeterminism error). */
  divergence?: Divergence;
  /** The code failed while replaying for another reason (it threw, the workflow type is unknown...). */
  error?: string;
}

/**
 * Replays one history against the current workflow code and says whether the code still makes
 * the same decisions; if not, the first event that differs and what the code did instead (found
 * from the SDK's nondeterminism message, and when that names no event, by replaying ever longer
 * prefixes of the history to find the first workflow task whose decisions differ).
 *
 * `history` is a `History` (e.g. `handle.fetchHistory()`) or its JSON form (`temporal workflow
 * show --output json`, the UI's export with encoded payloads).
 *
 * @example
 * const report = await replayHistory(JSON.parse(readFileSync('run.json', 'utf8')), { workflowBundle: { codePath } });
 * if (!report.ok) console.log(describeReplay(report));
 */
export async function replayHistory(history: History | unknown, opts: ReplayOptions & { workflowId?: string } = {}): Promise<ReplayReport> {
  const parsed = toHistory(history);
  const options = await replayOptions(opts);
  const started = parsed.events?.[0]?.workflowExecutionStartedEventAttributes;
  const base = {
    workflowId: opts.workflowId ?? 'replay',
    workflowType: started?.workflowType?.name ?? undefined,
    events: parsed.events?.length ?? 0,
    workflowTasks: workflowTasks(parsed).length,
  };
  const t0 = Date.now();
  try {
    await Worker.runReplayHistory(options, parsed, base.workflowId);
    return { ...base, ok: true, ms: Date.now() - t0 };
  } catch (err) {
    const ms = Date.now() - t0;
    if (!(err instanceof DeterminismViolationError)) return { ...base, ok: false, ms, error: firstLine(err instanceof Error ? err.message : String(err)) };
    return { ...base, ok: false, ms, divergence: await locate(parsed, err, options) };
  }
}

/**
 * Fetches a run's history (its latest run, or `runId`) and replays it (see `replayHistory`).
 *
 * @example
 * const report = await replayRun(client, 'agent-1a2b');
 * report.ok; // true: the current code makes the same decisions
 */
export async function replayRun(client: Client, workflowId: string, opts: ReplayOptions & { runId?: string } = {}): Promise<ReplayReport> {
  const handle = client.workflow.getHandle(workflowId, opts.runId);
  const runId = opts.runId ?? (await handle.describe()).runId;
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return { ...(await replayHistory(history, { ...opts, workflowId })), runId };
}

/**
 * Replays every closed run a visibility query matches (default: grove's runs, `GroveKind IS NOT
 * NULL`) against the current code: the check to run before deploying a workflow change. The code
 * is bundled once; each run gets its own report, with the divergence located for those that
 * differ.
 *
 * @example
 * const reports = await replayAll(client, { query: 'StartTime > "2025-06-01T00:00:00Z"' });
 * const diverged = reports.filter((r) => !r.ok);
 */
export async function replayAll(client: Client, opts: ReplayOptions & { query?: string; limit?: number } = {}): Promise<ReplayReport[]> {
  const options = await replayOptions(opts);
  const query = `GroveKind IS NOT NULL AND ExecutionStatus != "Running"${opts.query ? ` AND (${opts.query})` : ''}`;
  const limit = opts.limit ?? 1000;
  const reports: ReplayReport[] = [];
  for await (const info of client.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
    if (reports.length >= limit) break;
    const history = await client.workflow.getHandle(info.workflowId, info.runId).fetchHistory();
    reports.push({ ...(await replayHistory(history, { workflowBundle: options.workflowBundle, workflowId: info.workflowId })), runId: info.runId });
  }
  return reports;
}

/**
 * One plain sentence about a replay: whether the code makes the same decisions, and if not where
 * it first differs and what it did instead.
 *
 * @example
 * describeReplay(report); // 'agent-1a2b: the current code makes the same decisions (61 workflow tasks, 181 events; replayed in 0.35 s)'
 */
export function describeReplay(report: ReplayReport): string {
  const what = `${report.workflowId}${report.workflowType ? ` (${report.workflowType})` : ''}`;
  const size = `${report.workflowTasks} workflow tasks, ${report.events} events; replayed in ${(report.ms / 1000).toFixed(2)} s`;
  if (report.ok) return `${what}: the current code makes the same decisions (${size})`;
  if (report.error) return `${what}: the replay failed before it could compare decisions: ${report.error}`;
  const d = report.divergence!;
  const at = d.eventId !== undefined ? `event ${d.eventId}${d.eventType ? ` (${d.eventType})` : ''}` : 'an unknown event';
  return (
    `${what}: the current code first decides differently at ${at}: the history has ${d.recorded} there; the current code ${d.codeDid} instead. ` +
    'Running workflows of this kind would fail at that point: put the change behind patched(), or let them finish first.'
  );
}

async function replayOptions(opts: ReplayOptions): Promise<ReplayWorkerOptions> {
  return { workflowBundle: opts.workflowBundle ?? (await bundleGroveWorkflows({ workflowsPath: opts.workflowsPath })), sinks: opts.sinks };
}

function toHistory(history: History | unknown): History {
  const events = (history as { events?: { eventId?: unknown }[] } | null)?.events;
  if (!Array.isArray(events)) throw new TypeError('not a workflow history: it has no "events" list');
  return typeof events[0]?.eventId === 'string' ? (historyFromJSON(history) as History) : (history as History);
}

/**
 * The first event the code does not reproduce: named by the SDK's message when it names one,
 * else found by replaying prefixes (binary search over workflow tasks) and matching the message
 * against the first failing task's commands.
 */
async function locate(history: History, err: DeterminismViolationError, options: ReplayWorkerOptions): Promise<Divergence> {
  const message = nondeterminismMessage(err);
  const { match, ...parsed } = parseNondeterminism(message);
  if (parsed.eventId !== undefined) return { ...parsed, message };
  const tasks = workflowTasks(history).length;
  let lo = 0;
  let hi = tasks - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const fails = await Worker.runReplayHistory(options, historyPrefix(history, mid)).then(
      () => false,
      (e: unknown) => e instanceof DeterminismViolationError,
    );
    if (fails) hi = mid;
    else lo = mid + 1;
  }
  const event = tasks > 0 ? eventInTask(history, lo, match) : undefined;
  return { ...parsed, eventId: event ? Number(event.eventId) : undefined, eventType: event ? eventTypeName(event) : parsed.eventType, message };
}
