import type { Client, WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { ConversationDelta } from '../core/conversation/delta';
import type { Message } from '../core/schemas/messages';
import { GroveInputError, parseInput } from '../core/schemas/parse-input';
import { loadPolicy } from '../activities/policy/load-policy';
import { policyViolations, type OperatorPolicyInput, type OperatorPolicy } from '../core/policy/operator-policy';
import { checkPayload } from './input-guards';
import { SampleTree } from '../core/tree/sample-tree';
import { formatCallTree } from '../core/airetry/format-call-tree';
import type { AgentNode } from '../core/agents/agent-node';
import { RESULT_TEXT_NODES } from '../core/agents/agent-result';
import { formatSearchTree } from '../core/agents/format-search-tree';
import { GroveKind, GroveStatus } from '../workflows/search-attributes';
import { formatSessionTree } from '../core/session/format-session';
import type { SessionTreeView } from '../core/session/message-tree';
import { prepareFork, type ForkRunOptions } from './runs/fork';
import { listRuns, type ListRunsOptions } from './runs/list-runs';
import { resumeRun, type ResumeOptions, type Resumed } from './runs/resume';
import { runOutcome, type RunOutcome } from './runs/run-outcome';
import { verifyRun } from './runs/verify-run';
import type { VerifyReport } from '../core/verdicts/claims';
import { describeRunState, runState, type RunState } from './runs/run-state';
import type { HealthOptions } from '../temporal/runs/read-run-health';
import { judgeHealth, type RunHealth } from '../temporal/runs/run-health';
import { RUN_KINDS, type RunInput, type RunKindName, type RunResult } from './run-kinds';
import { GroveSession, Steering, SteeringError, type SessionOpenOptions } from './steering-client';
import { connectClient } from '../temporal/connect';
import { runUrl, temporalSettings, type TemporalConnectionSettings } from '../temporal/connection-options';
import { ensureSearchAttributes } from './temporal-server/search-attributes';
import { describeRun } from '../core/runs/describe-run';
import { describeFigures, figuresOfAttributes, figuresOfProgress } from '../core/runs/run-figures';
import type { PendingApproval } from '../core/steering/approvals';
import { waitingLine } from '../temporal/runs/live-figures';
import { flushGroveTelemetry } from '../activities/telemetry/telemetry-registry';
import { openStore, storeSettingsFromEnv } from '../activities/store/open-store';
import type { RunEvent } from '../core/runs/run-events';
import { runEvents, type RunEventsOptions } from './runs/run-events';

/** A run's tree as `GroveClient.tree` returns it. */
export interface TreeView {
  state: RunState;
  kind: 'airetry' | 'agent' | 'session';
  tree?: unknown;
  text?: string;
  /** Why there is no tree to show (a run kind without one, no worker to answer for a closed run). */
  note?: string;
}

export interface StartOptions {
  /** Defaults to `<kind>-<random>`; reuse an id to make a start idempotent. */
  workflowId?: string;
  taskQueue?: string;
}

/**
 * The typed client for backend services: validates a run's input before anything starts
 * (a bad field is named in the error, and no workflow is created), starts ready-made grove
 * workflows with a readable summary for the Temporal UI, and returns their results.
 *
 * @example
 * const grove = await GroveClient.connect();               // TEMPORAL_ADDRESS or a local dev server
 * const { output } = await grove.run('generate', { prompt: 'Say hi!' });
 */
export class GroveClient {
  /** What one run may do; inputs beyond it are rejected before they start (workers hold runs to their own). */
  readonly policy: OperatorPolicy;

  constructor(
    readonly temporal: Client,
    readonly taskQueue = 'grove',
    /** How this client reached Temporal (address, the setting that chose it, the UI's address). */
    readonly settings?: TemporalConnectionSettings,
    policy?: OperatorPolicyInput,
  ) {
    this.policy = loadPolicy(policy);
  }

  /**
   * Connects with the Temporal settings of the environment (`temporalSettings`: the standard
   * `TEMPORAL_*` variables and config-file profiles, else grove's local dev server on
   * `GROVE_TEMPORAL_PORT`), or the given ones. Fails in one line naming the address tried and
   * the setting that chose it.
   */
  static async connect(opts: { settings?: TemporalConnectionSettings; taskQueue?: string; policy?: OperatorPolicyInput } = {}): Promise<GroveClient> {
    const settings = opts.settings ?? temporalSettings();
    return new GroveClient(await connectClient(settings), opts.taskQueue ?? process.env.GROVE_TASK_QUEUE ?? 'grove', settings, opts.policy);
  }

  /** The run's page in the Temporal Web UI, when the UI's address is known. */
  runUrl(workflowId: string): string | undefined {
    return this.settings ? runUrl(this.settings, workflowId) : undefined;
  }

  /** Validates `input` and starts the run; resolves once the server accepted it. */
  async start<K extends RunKindName>(kind: K, input: RunInput<K>, opts: StartOptions = {}): Promise<WorkflowHandle> {
    const spec = RUN_KINDS[kind];
    const taskQueue = opts.taskQueue ?? this.taskQueue;
    const parsed = this.checkInput(kind, input, taskQueue);
    await ensureSearchAttributes(this.temporal);
    return this.temporal.workflow.start(spec.workflowType, {
      taskQueue,
      workflowId: opts.workflowId ?? `${kind}-${randomUUID().slice(0, 8)}`,
      args: [input],
      staticSummary: spec.summary(parsed as never),
      typedSearchAttributes: [
        { key: GroveKind, value: kind },
        { key: GroveStatus, value: 'running' },
      ],
    });
  }

  /**
   * Checks a run's input as its run will: it must travel through Temporal, match its schema and
   * fit the operator's policy. Throws a `GroveInputError` naming each bad field; returns the parsed input.
   */
  checkInput<K extends RunKindName>(kind: K, input: RunInput<K>, taskQueue: string = this.taskQueue): unknown {
    checkPayload(kind, input);
    const parsed = parseInput(RUN_KINDS[kind].schema, input, `${kind} input`);
    const problems = policyViolations(kind, parsed as Record<string, unknown>, this.policy, taskQueue);
    if (problems.length > 0) throw new GroveInputError(`invalid ${kind} input: ${problems.join('; ')}`);
    return parsed;
  }

  /** Starts the run and waits for its result. */
  async run<K extends RunKindName>(kind: K, input: RunInput<K>, opts: StartOptions = {}): Promise<RunResult<K> & { workflowId: string }> {
    const handle = await this.start(kind, input, opts);
    const result = (await handle.result()) as RunResult<K>;
    return { ...result, workflowId: handle.workflowId };
  }

  /**
   * How a run stands: its status (Temporal's execution status wins, see `RunState`), counters,
   * why it ended, and while it runs its health (what it waits on; retrying or stalled).
   */
  state(workflowId: string, health?: HealthOptions): Promise<RunState> {
    return runState(this.temporal, workflowId, undefined, health);
  }

  /**
   * What a run waits on and whether it is in trouble: each pending model call, tool or evaluation
   * with its attempt, last failure (redacted, one line) and next attempt; `stalled` once a step
   * has been failing longer than `stalledAfterMs` (`GROVE_STALLED_AFTER_MS`, default 30 s). A run
   * that is not running waits on nothing (`ok`).
   *
   * @example
   * const health = await grove.health('agent-1a2b');
   * if (health.state !== 'ok') console.log(health.line); // 'stalled: model call (llmChat) … 8 failed attempts since 13:02:11, last: GroveNetworkError: …; next attempt in 12 s'
   */
  async health(workflowId: string, opts: HealthOptions = {}): Promise<RunHealth> {
    return (await this.state(workflowId, opts)).health ?? judgeHealth([], opts.nowMs ?? Date.now(), opts.stalledAfterMs);
  }

  /** Runs from Temporal's visibility store, newest first (`grove list`). */
  list(opts: ListRunsOptions = {}): Promise<RunState[]> {
    return listRuns(this.temporal, opts);
  }

  /** Waits for a run to end: its result, whether it succeeded, and grove's exit code for it (`grove result`). */
  outcome(workflowId: string): Promise<RunOutcome> {
    return runOutcome(this.temporal, workflowId);
  }

  /**
   * Re-checks what a finished run claims from what Temporal stored (`grove verify`): every
   * deterministic claim recomputed, each one that cannot be (an LLM judge, a custom evaluator,
   * sandboxed tests) listed with who decided it. No worker and no model call needed.
   *
   * @example
   * const report = await grove.verify('airetry-1a2b');
   * if (!report.holds) console.log(report.claims.filter((c) => c.holds === false));
   */
  verify(workflowId: string): Promise<VerifyReport> {
    return verifyRun(this.temporal, workflowId);
  }

  /**
   * Continues a failed, cancelled, terminated or timed-out run from just before its first failed
   * step, keeping every result that succeeded (`grove resume`); `overrides` change the model or
   * budget of what it does from then on.
   */
  resume(workflowId: string, opts: ResumeOptions = {}): Promise<Resumed> {
    return resumeRun(this.temporal, workflowId, opts);
  }

  /**
   * Starts a new run that continues the tree of `workflowId` from node `opts.nodeId` (`grove
   * fork`): the path to the node — every result paid for on it — is carried, not paid again.
   *
   * @example
   * const handle = await grove.fork('agent-1a2b', { nodeId: 7, overrides: { budget: { maxCalls: 30 } } });
   */
  async fork(workflowId: string, opts: ForkRunOptions & { taskQueue?: string }): Promise<WorkflowHandle> {
    const prepared = await prepareFork(this.temporal, workflowId, opts);
    return this.start(prepared.kind, prepared.input as never, { workflowId: prepared.workflowId, taskQueue: opts.taskQueue });
  }

  /**
   * The tree of a run as JSON and as text (the seeds' `print_samples` shape for airetry runs, one
   * line per step for search agents; `answers` adds each airetry sample's answer), with the run's
   * state. A completed run's tree is read from its result (no worker needed); any other run's by
   * query, which a worker must answer — for a run that failed or was cancelled that means a worker
   * serving its task queue (`note` says so when none does). A run kind without a tree
   * (`generate`) has `note` instead.
   */
  async tree(workflowId: string, opts: { answers?: boolean } = {}): Promise<TreeView> {
    const handle = this.handle(workflowId);
    const state = await this.state(workflowId);
    if (state.kind === 'session') {
      const tree = state.temporalStatus === 'COMPLETED' ? ((await handle.result()) as { tree: SessionTreeView }).tree : await handle.query<SessionTreeView>('tree');
      return { state, kind: 'session', tree, text: formatSessionTree(tree) };
    }
    const kind = state.kind.startsWith('agent') ? 'agent' : 'airetry';
    if (state.workflowType === 'generate') {
      return { state, kind, note: `${workflowId} is a generate run: it has no tree (\`grove show ${workflowId}\` prints its answer)` };
    }
    if (state.temporalStatus === 'COMPLETED') {
      const result = (await handle.result()) as { tree?: unknown; treeText?: string; activeSampleId?: number; bestNodeId?: number; isSolution?: boolean };
      if (result.treeText === undefined) return { state, kind, note: `${workflowId} is a ${state.workflowType} run: its result has no tree` };
      if (result.tree === undefined) return { state, kind, text: result.treeText };
      // Drawn here from the tree rather than the result's text, so what rewinds abandoned shows too.
      const text =
        kind === 'agent'
          ? formatSearchTree(SampleTree.fromJSON<AgentNode>(result.tree), { bestId: result.bestNodeId, solutionId: result.isSolution ? result.bestNodeId : undefined, maxNodes: RESULT_TEXT_NODES, abandoned: true })
          : formatCallTree(SampleTree.fromJSON<ConversationDelta>(result.tree), { activeSampleId: result.activeSampleId, answers: opts.answers, abandoned: true });
      return { state, kind, tree: result.tree, text };
    }
    if (state.status !== 'running' && !(await this.hasWorker(state.taskQueue))) {
      return { state, kind, note: `its tree is shown while a worker serves task queue "${state.taskQueue}" (a query on a closed run replays its history on a worker)` };
    }
    const [tree, text] = await Promise.all([handle.query<unknown>('tree'), handle.query<string, [{ answers?: boolean }]>('treeText', { answers: opts.answers })]);
    return { state, kind, tree, text };
  }

  /**
   * The winning conversation of a run: the active sample's (airetry, running or finished) or the
   * best trajectory (a finished search; a running search keeps its messages in the store), with
   * the result of a completed run (its verdict says who decided). A run that did not complete has
   * `note` (what happened to it) instead.
   */
  async conversation(workflowId: string): Promise<{ conversation?: Message[]; state: RunState; note?: string; result?: unknown }> {
    const handle = this.handle(workflowId);
    const state = await this.state(workflowId);
    if (state.temporalStatus === 'COMPLETED') {
      const result = (await handle.result()) as { conversation?: Message[]; messages?: Message[] };
      return { conversation: result.conversation ?? result.messages ?? [], state, result };
    }
    if (state.status !== 'running') return { state, note: `${workflowId} ${describeRunState(state)}` };
    if (state.kind.startsWith('agent')) {
      return { state, note: `${workflowId} is still searching (${describeRunState(state)}): its best trajectory is returned when it finishes (\`grove tree\` shows its progress)` };
    }
    return { conversation: await handle.query<Message[]>('conversation'), state };
  }

  /**
   * A run's status, a one-line summary and its figures (`modelCalls`, `samples`, `toolRuns`,
   * `tokens`, `best`: defined once in docs/runs.md, "The figures", and computed by
   * core/runs/run-figures.ts for every surface): a completed run's from its result (its summary is
   * the headline `grove result` leads with), a running run's live by query (the query's own
   * fields too) with its `health` (what it waits on, retrying or stalled), any other
   * run's as its search attributes recorded them.
   */
  async progress(workflowId: string, opts: HealthOptions = {}): Promise<Record<string, unknown>> {
    const state = await this.state(workflowId, opts);
    const health = state.health ? { health: state.health } : {};
    if (state.temporalStatus === 'COMPLETED') {
      // A completed run's figures come from its result, as `grove result` prints them (docs/runs.md, "The figures").
      const run = describeRun(state.kind, await this.handle(workflowId).result());
      return { workflowId, status: state.status, summary: run.headline, ...run.figures };
    }
    if (state.status === 'running' && state.workflowType !== 'generate') {
      if (!(await this.hasWorker(state.taskQueue))) {
        return { workflowId, status: state.status, summary: `${describeRunState(state)}; no worker polls task queue "${state.taskQueue}" to answer for its counters`, ...figuresOfAttributes(state), ...health };
      }
      const live = await this.handle(workflowId).query<Record<string, unknown>>('progress');
      const figures = figuresOfProgress(state.kind, live);
      // The live figures, not the last search-attribute report, and a person who must act named.
      const waiting = state.kind.startsWith('agent') || state.kind === 'session' ? await this.handle(workflowId).query<PendingApproval[]>('pending').catch(() => []) : [];
      const spent = describeFigures(figures);
      const summary = [`running${spent ? `: ${spent} so far` : ''}`, waitingLine(workflowId, waiting), state.health?.line].filter(Boolean).join(' — ');
      return { ...live, workflowId, status: state.status, summary, ...figures, ...(waiting.length ? { waiting } : {}), ...health };
    }
    return { workflowId, status: state.status, summary: describeRunState(state), ...figuresOfAttributes(state), ...health };
  }

  /**
   * A run's events as they happen (docs/streaming.md): `status` first and whenever it changes;
   * `node` for each node its tree grows and `evaluation` for each score (read every `pollMs`,
   * default 1 s, from what the run exposes: its description and queries, as the viewer reads
   * them); `token` for each model call's answer as it streams — the text so far first (a late
   * or reconnecting reader starts there), then what each update adds — read from the message
   * store's token channel (`store`, default the one `GROVE_STORE_URL` names, as the workers'
   * is). The events end after the run ends, with its final `status`; or when `signal` aborts.
   * Streams never enter the run's history: reading them costs the run nothing.
   *
   * @example
   * for await (const e of grove.events('agent-1a2b')) {
   *   if (e.type === 'token') process.stderr.write(e.delta);
   *   if (e.type === 'status' && !e.live) console.log(`\n${e.status}`);
   * }
   */
  async *events(workflowId: string, opts: Partial<RunEventsOptions> = {}): AsyncGenerator<RunEvent> {
    const store = opts.store ?? openStore(storeSettingsFromEnv());
    try {
      yield* runEvents(this.temporal, workflowId, { ...opts, store });
    } finally {
      if (!opts.store) await store.close();
    }
  }

  /**
   * Cancels a run: its in-flight model calls are aborted (activities hear it through their
   * heartbeats and pass it to the `openai` SDK) and the run ends as cancelled.
   */
  async cancel(workflowId: string): Promise<void> {
    // Temporal accepts a cancellation of a closed run and does nothing: say so instead of "requested".
    const status = (await this.handle(workflowId).describe()).status.name;
    if (status !== 'RUNNING') {
      throw new SteeringError(`run ${workflowId} has finished (${status.toLowerCase()}): there is nothing to cancel (\`grove result ${workflowId}\` prints how it ended)`, 'GroveRunFinished');
    }
    await this.handle(workflowId).cancel();
  }

  /**
   * A durable conversation by workflow id: `send` starts it on first use (update-with-start) and
   * returns the reply; `rewind`, `feedback`, `approve`, `stop`, `close` steer it.
   *
   * @example
   * const chat = grove.session('chat-ana', { input: { tools: ['save_note'], rewindTool: true } });
   * const { reply } = await chat.send('Hi!');
   */
  session(workflowId: string, opts: Partial<SessionOpenOptions> = {}): GroveSession {
    const taskQueue = opts.taskQueue ?? this.taskQueue;
    if (opts.input !== undefined) this.checkInput('session', opts.input, taskQueue);
    return new GroveSession(this.temporal, workflowId, { ...opts, taskQueue });
  }

  /**
   * Steering of running runs — `rewind`, `feedback`, `approve`, `stop`, `pending`, `actions` —
   * acting as `by` (default `GROVE_ACTOR` or the OS user), recorded by the run.
   *
   * @example
   * await grove.steer('ana').feedback('airetry-1a2b', { nodeId: 3, text: 'Answer with a color name.' });
   */
  steer(by?: string): Steering {
    return new Steering(this.temporal, by);
  }

  /** Whether a worker polls `taskQueue` (default this client's) for workflow tasks; true when it cannot tell. */
  async hasWorker(taskQueue = this.taskQueue): Promise<boolean> {
    try {
      const response = await this.temporal.workflowService.describeTaskQueue({
        namespace: this.temporal.options.namespace,
        taskQueue: { name: taskQueue },
        taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
      });
      return (response.pollers ?? []).length > 0;
    } catch {
      return true; // describing a task queue is a convenience: never fail over it
    }
  }

  handle(workflowId: string): WorkflowHandle {
    return this.temporal.workflow.getHandle(workflowId);
  }

  /** Closes the connection, after exporting the spans and metrics of the process still batched (when telemetry is on). */
  async close(): Promise<void> {
    await flushGroveTelemetry();
    await this.temporal.connection.close();
  }
}
