import type { PendingApproval } from '../../core/steering/approvals';
import { shorten } from '../../core/conversation/preview';
import { describeRun } from '../../core/runs/describe-run';
import { liveFigures, waitingLine } from '../../temporal/runs/live-figures';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { readRunHealth } from '../../temporal/runs/read-run-health';
import { runUrl } from '../../temporal/connection-options';
import { mapLimit } from '../../core/agents/map-limit';
import { canonicalKind } from '../../core/runs/run-kind-names';
import { GroveBestScore, GroveCalls, GroveKind, GroveStatus, GroveTokens } from '../../workflows/search-attributes';
import { adapterFor, type RunSnapshot, type StoreReader } from '../adapters';
import { nodeDetail, pathTo, type NodeDetail, type RunSummary, type RunView } from '../model/view-tree';
import { exportData, snapshotView, withRev, type ExportData } from './run-view';
import { visibilityQuery, type RunFilter } from './run-filter';

export interface RunSourceOptions {
  client: Client;
  /** The message store the run's workers write (agent conversations are read from it). */
  store: StoreReader;
  /** The Temporal Web UI's base URL, for links to each run. */
  temporalUiUrl?: string;
  /** How long a query may wait for a worker (ms); default 10 s. */
  queryTimeoutMs?: number;
  /** A run's view is reused for this long (ms) by every page that asks; default 250 ms. */
  reuseMs?: number;
  /** A step failing this long marks its run stalled; default `GROVE_STALLED_AFTER_MS` or 30 s. */
  stalledAfterMs?: number;
}


export class RunNotFoundError extends Error {
  override name = 'RunNotFoundError';
}

interface Loaded {
  view: RunView;
  snapshot?: RunSnapshot;
  at: number;
}

/**
 * Everything the viewer reads, and only reads: runs from Temporal visibility, a run's tree by
 * query (live) or from its result (finished), its input from the first history event, and node
 * messages from the message store. Pages that watch the same run share one query: a view is
 * reused for `reuseMs`, and a finished run's view is kept.
 *
 * @example
 * const source = new RunSource({ client, store: openViewerStore() });
 * const view = await source.view('agent-1a2b3c4d');
 */
export class RunSource {
  private readonly loads = new Map<string, Promise<Loaded>>();
  private readonly inputs = new Map<string, Promise<unknown>>();

  constructor(private readonly opts: RunSourceOptions) {}

  private get namespace(): string {
    return this.opts.client.options.namespace;
  }

  /** The latest grove runs (those with a GroveKind), newest first; running ones with their health (retrying, stalled). */
  async list(filter: RunFilter = {}): Promise<RunSummary[]> {
    const runs: RunSummary[] = [];
    const limit = filter.limit ?? 100;
    for await (const info of this.opts.client.workflow.list({ query: visibilityQuery(filter), pageSize: Math.min(limit, 1000) })) {
      runs.push(this.summary(info));
      if (runs.length >= limit) break;
    }
    return mapLimit(runs, 8, async (run) => {
      if (run.execution !== 'RUNNING') return run;
      const description = await this.opts.client.workflow.getHandle(run.workflowId).describe().catch(() => undefined);
      if (!description) return run;
      // Live counters (the search attributes are only the run's last report), as grove list shows them.
      const [health, live] = await Promise.all([readRunHealth(this.opts.client, description, { stalledAfterMs: this.opts.stalledAfterMs }), liveFigures(this.opts.client, run.workflowId, run.kind)]);
      const f = live?.figures;
      const line = live ? waitingLine(run.workflowId, live.waiting) : '';
      return { ...run, calls: f?.modelCalls ?? run.calls, tokens: f?.tokens ?? run.tokens, bestScore: f?.best ?? run.bestScore, health, ...(line ? { waiting: line } : {}) };
    });
  }

  /** A run's page data: its summary, its tree in the viewer's shape, its facts. */
  async view(workflowId: string): Promise<RunView> {
    return (await this.load(workflowId)).view;
  }

  /** A node's details: its conversation (rebuilt along its path), facts and texts. */
  async node(workflowId: string, nodeId: number): Promise<NodeDetail> {
    const { view, snapshot } = await this.load(workflowId);
    if (!view.tree || !snapshot) throw new RunNotFoundError(`run ${workflowId} has no tree${view.note ? ` (${view.note})` : ''}`);
    const parents = new Map(view.tree.nodes.map((n) => [n.id, n.parent] as const));
    if (!parents.has(nodeId)) throw new RunNotFoundError(`run ${workflowId} has no node ${nodeId} (it has ${parents.size} nodes)`);
    const path = pathTo(parents, nodeId);
    const parts = await snapshot.parts(path, this.opts.store);
    return nodeDetail(path.map((id) => parts.get(id)!), nodeId);
  }

  /** A run's view and the parts of every node, for a page that works without the server. */
  async exportData(workflowId: string, now = new Date()): Promise<ExportData> {
    const { view, snapshot } = await this.load(workflowId);
    return exportData(view, snapshot, this.opts.store, now);
  }

  private load(workflowId: string): Promise<Loaded> {
    const cached = this.loads.get(workflowId);
    if (cached) return cached;
    const promise = this.read(workflowId);
    this.loads.set(workflowId, promise);
    const forget = () => this.loads.get(workflowId) === promise && this.loads.delete(workflowId);
    promise.then(
      (loaded) => {
        if (loaded.view.live || loaded.view.note) setTimeout(forget, this.opts.reuseMs ?? 250).unref();
        else if (this.loads.size > 200) this.loads.delete(this.loads.keys().next().value!);
      },
      forget,
    );
    return promise;
  }

  private async read(workflowId: string): Promise<Loaded> {
    const { client } = this.opts;
    const handle = client.workflow.getHandle(workflowId);
    const description = await handle.describe().catch((err: Error) => {
      if (err.name === 'WorkflowNotFoundError') throw new RunNotFoundError(`no run ${workflowId} in namespace ${this.namespace}`);
      throw err;
    });
    const live = description.status.name === 'RUNNING';
    const run = { ...this.summary(description), ...(live ? { health: await readRunHealth(client, description, { stalledAfterMs: this.opts.stalledAfterMs }) } : {}) };
    // A workflow of your own that `exposeCall`s an AI call has no GroveKind: its sample tree is drawn like airetry's.
    const adapter = adapterFor(run.kind) ?? (run.kind === '' ? adapterFor('airetry') : undefined);
    const base = { run, live, facts: [] as [string, string][] };
    if (!adapter) return { view: withRev({ ...base, note: `runs of kind ${run.kind} have no tree to draw` }), at: Date.now() };
    const input = await this.input(workflowId, description.runId);
    const timeoutMs = this.opts.queryTimeoutMs ?? 10_000;
    try {
      const snapshot = await adapter.snapshot({
        live,
        input,
        store: this.opts.store,
        result: async () => (run.execution === 'COMPLETED' ? handle.result() : undefined),
        query: (name) =>
          client.withDeadline(Date.now() + timeoutMs, () => handle.query(name)).catch((err: Error) => {
            throw new Error(`the ${name} query got no answer (${err.message.split('\n')[0]}): ${live ? 'is a grove worker running on the run\'s task queue?' : 'reading a run that did not complete needs a grove worker on its task queue'}`);
          }),
      });
      // A tool call waiting for a person comes first, with the command that decides it (as `grove session send` says it).
      const waiting = live ? await handle.query<PendingApproval[]>('pending').catch(() => [] as PendingApproval[]) : [];
      const asks = waiting.map((p): [string, string] => ['waiting for approval', `${p.tool}(${shorten(p.arguments, 80)}) (call ${p.callId}, ${p.where}): grove approve ${workflowId}${waiting.length > 1 ? ` --call ${p.callId}` : ''}`]);
      // A finished run leads with its outcome, in the words the CLI uses (core/runs/describe-run.ts).
      const outcome: [string, string][] = run.execution === 'COMPLETED' ? [['outcome', describeRun(run.kind, await handle.result()).headline]] : [];
      return { view: snapshotView(run, live, snapshot, [...outcome, ...asks]), snapshot, at: Date.now() };
    } catch (err) {
      return { view: withRev({ ...base, note: (err as Error).message }), at: Date.now() };
    }
  }

  /** The run's input (first argument), read once per run from its first history event. */
  private input(workflowId: string, runId: string): Promise<unknown> {
    let input = this.inputs.get(runId);
    if (!input) {
      const { client } = this.opts;
      input = client.workflowService
        .getWorkflowExecutionHistory({ namespace: this.namespace, execution: { workflowId, runId }, maximumPageSize: 1 })
        .then((res) => decodeArrayFromPayloads(client.options.loadedDataConverter, res.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads))
        .then((args) => args[0])
        .catch(() => undefined);
      this.inputs.set(runId, input);
      if (this.inputs.size > 500) this.inputs.delete(this.inputs.keys().next().value!);
    }
    return input;
  }

  private summary(info: Omit<WorkflowExecutionInfo, 'raw'>): RunSummary {
    const attrs = info.typedSearchAttributes;
    const status = attrs.get(GroveStatus);
    return {
      workflowId: info.workflowId,
      kind: canonicalKind(attrs.get(GroveKind) ?? ''),
      // A run that was cancelled, terminated or timed out never reported it: Temporal's word then.
      status: status === undefined || (status === 'running' && info.status.name !== 'RUNNING') ? info.status.name.toLowerCase() : status,
      execution: info.status.name,
      calls: attrs.get(GroveCalls),
      tokens: attrs.get(GroveTokens),
      bestScore: attrs.get(GroveBestScore),
      startTime: info.startTime.toISOString(),
      closeTime: info.closeTime?.toISOString(),
      temporalUrl: this.opts.temporalUiUrl ? runUrl({ uiUrl: this.opts.temporalUiUrl, namespace: this.namespace }, info.workflowId) : undefined,
    };
  }
}

