import { allHandlersFinished, condition, continueAsNew, defineQuery, defineUpdate, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import { LlmSettingsSchema } from '../core/schemas/llm-settings';
import type { Message } from '../core/schemas/messages';
import { SessionInputSchema, type SessionInput } from '../core/session/session-input';
import { type SendResult, type SessionResult } from '../core/session/session-result';
import {
  CloseRequestSchema,
  FeedbackRequestSchema,
  SendRequestSchema,
  SessionRewindRequestSchema,
  StopRequestSchema,
  type CloseRequest,
  type FeedbackRequest,
  type HumanAction,
  type SendRequest,
  type SessionRewindRequest,
  type StopRequest,
} from '../core/schemas/steering';
import { formatSessionDetails, formatSessionTree } from '../core/session/format-session';
import type { RewindRecord, SessionTreeView } from '../core/session/message-tree';
import { runTurn, type SessionContext } from '../core/session/run-turn';
import { SessionState, type SessionHandover } from '../core/session/session-state';
import { ApprovalBook } from '../core/steering/approvals';
import { llmJudge } from './api/llm-judge';
import { workflowPort } from './api/workflow-port';
import { NON_RETRYABLE_AGENT_FAILURES } from './lib/agent-port';
import { beginRun } from './lib/run-lifecycle';
import { approvalWaiter } from './lib/approvals';
import { registerApprovals } from './lib/approve-update';
import { failRun, reportRun } from './lib/run-status';
import { setLedgerGeneration } from './lib/run-ledger';
import { Serial } from './lib/serial';
import { toolPort } from './lib/tool-port';
import { bindRegistry, carriedRegistry as registryToCarry, registryBinds, restoreRegistry } from './lib/run-registry';
import type { RunRegistry } from '../core/schemas/fleet';
import { rejectUpdate, steeringUpdate } from './lib/update-checks';
import { validateInput } from './lib/validate-input';
import { fitResult } from './lib/result-size';

export const sendUpdate = defineUpdate<SendResult, [SendRequest]>('send');
export const sessionRewindUpdate = defineUpdate<RewindRecord, [SessionRewindRequest]>('rewind');
export const sessionFeedbackUpdate = defineUpdate<{ messageId?: number; queued: boolean }, [FeedbackRequest]>('feedback');
export const sessionStopUpdate = defineUpdate<{ stopping: true }, [StopRequest]>('stop');
export const closeUpdate = defineUpdate<{ closedBy: string; at: number; turns: number }, [CloseRequest]>('close');
export const sessionConversationQuery = defineQuery<Message[]>('conversation');
export const sessionTreeQuery = defineQuery<SessionTreeView>('tree');
export const sessionTreeTextQuery = defineQuery<string>('treeText');
export const sessionActionsQuery = defineQuery<HumanAction[]>('actions');
export const sessionProgressQuery = defineQuery<Record<string, unknown>>('progress');

/**
 * A durable conversation. Messages arrive by update (`send`, which returns the assistant's
 * reply); the model may call tools (waiting durably for a person's approval where a tool
 * requires it) and its answers may be checked with airetry's checks. Messages live in the
 * message store and the run keeps references, so history grows by what each turn adds; the
 * conversation continues as new when history gets long, seamlessly for its callers.
 *
 * It can be steered: `rewind` replaces an earlier assistant message and prunes everything after
 * it (kept in the `tree` query as an abandoned branch, never paid for again); the model may do
 * the same with its `rewind` tool; `feedback` adds a person's critique for the next model call;
 * `approve` decides a pending tool call; `stop` ends a turn with the best answer so far; `close`
 * ends the conversation and returns its transcript. Every human action is recorded (who, when,
 * what) in the `actions` query and the result.
 *
 * @example
 * // start-or-send, from a backend (GroveClient.session does this):
 * const reply = await client.workflow.executeUpdateWithStart('send', {
 *   args: [{ content: 'Hi!', by: 'ana' }],
 *   startWorkflowOperation: new WithStartWorkflowOperation('session', { workflowId: 'chat-ana', taskQueue: 'grove', args: [{}], workflowIdConflictPolicy: 'USE_EXISTING' }),
 * });
 */
export async function session(raw: SessionInput, carried?: SessionHandover, carriedRegistry?: RunRegistry[]): Promise<SessionResult> {
  const options = validateInput(SessionInputSchema, raw, 'session input', 'session');
  const binds = !carried && registryBinds();
  const llm = LlmSettingsSchema.parse(options.llm ?? {});
  const tools = toolPort(llm, options.toolTaskQueue, NON_RETRYABLE_AGENT_FAILURES);
  const book = new ApprovalBook();
  const serial = new Serial();
  const workflowId = workflowInfo().workflowId;
  let state: SessionState | undefined;
  let turnRunning = false;
  let turnsThisRun = 0;

  const ready = async (): Promise<SessionState> => {
    await condition(() => state !== undefined);
    return state!;
  };
  const open = (what: string): SessionState | undefined => {
    if (state?.closed) rejectUpdate(what, `the session is closed (by ${state.closed.by}); start a new one`);
    return state;
  };
  const showDetails = () => {
    if (!state) return;
    setCurrentDetails(
      formatSessionDetails(state.tree.view(), {
        workflowId,
        turns: state.tree.turn,
        modelCalls: state.counters.modelCalls,
        pending: book.pending(),
        actions: state.actions.list,
        closed: state.closed?.by,
      }),
    );
  };
  const result = (s: SessionState): SessionResult => ({
    kind: 'session',
    conversation: s.tree.conversation(),
    turns: s.tree.turn,
    closedBy: s.closed?.by ?? '',
    counters: s.counters,
    usage: s.usage,
    actions: s.actions.toJSON(),
    tree: s.tree.view(),
  });

  const approve = approvalWaiter(book, options.approval, {
    record: (action) => state!.actions.record(action),
    stopped: () => state?.stop,
    changed: showDetails,
  });
  const llmPort = workflowPort(options.llm);
  const ctx = (): SessionContext => ({
    state: state!,
    options,
    port: {
      chat: llmPort.chat,
      runTool: tools.runTool,
      approve,
      judge: async (call, question, model) => llmJudge(question, { model: model ?? options.model, llm: options.llm })(call),
      nowMs: () => Date.now(),
      onStep: showDetails,
    },
  });

  steeringUpdate(sendUpdate, SendRequestSchema, 'send', {
    description: 'Send a message; returns the assistant reply.',
    check: () => void open('send'),
    run: async (request) => {
      const s = await ready();
      return serial.run(async () => {
        open('send');
        s.actions.record({ at: Date.now(), by: request.by, action: 'send', target: `turn ${s.tree.turn + 1}`, detail: typeof request.content === 'string' ? request.content : '(message parts)' });
        turnRunning = true;
        try {
          return await runTurn(ctx(), request.content, request.by);
        } finally {
          turnRunning = false;
          turnsThisRun += 1;
          s.stop = undefined;
          // Search attributes once a turn (each upsert is a history event).
          reportRun({ calls: s.counters.modelCalls, tokens: s.usage.totalTokens });
          showDetails();
        }
      });
    },
  });

  const rewindTarget = (request: { n?: number; messageId?: number }) => (request.n !== undefined ? { n: request.n } : { messageId: request.messageId! });
  steeringUpdate(sessionRewindUpdate, SessionRewindRequestSchema, 'rewind', {
    description: 'Replace an earlier assistant message and prune everything after it.',
    check: (request) => {
      const resolved = open('rewind')?.tree.resolveTarget(rewindTarget(request));
      if (resolved && !resolved.ok) rejectUpdate('rewind', resolved.reason);
    },
    run: async (request) => {
      const s = await ready();
      return serial.run(async () => {
        // The conversation may have changed while the rewind waited for a turn to end.
        const resolved = open('rewind')!.tree.resolveTarget(rewindTarget(request));
        if (!resolved.ok) rejectUpdate('rewind', resolved.reason);
        const { record } = s.tree.rewind(rewindTarget(request), request.content, { at: Date.now(), by: request.by, source: 'update' });
        s.counters.rewinds += 1;
        s.actions.record({ at: record.at, by: request.by, action: 'rewind', target: `assistant message ${record.n} (#${record.targetId})`, detail: request.content });
        showDetails();
        return record;
      });
    },
  });

  steeringUpdate(sessionFeedbackUpdate, FeedbackRequestSchema, 'feedback', {
    description: 'Feedback on an assistant message, seen by the next model call.',
    check: (request) => {
      const target = open('feedback')?.feedbackTarget(request.nodeId);
      if (target && !target.ok) rejectUpdate('feedback', target.reason);
    },
    run: async (request) => {
      const s = await ready();
      const target = s.feedbackTarget(request.nodeId);
      if (!target.ok) rejectUpdate('feedback', target.reason);
      const at = Date.now();
      s.actions.record({ at, by: request.by, action: 'feedback', target: `message ${target.node.id}`, detail: request.text });
      const feedback = { targetId: target.node.id, text: request.text, by: request.by, at };
      if (turnRunning) {
        s.feedbackQueue.push(feedback);
        return { queued: true };
      }
      const node = s.addFeedback(feedback);
      showDetails();
      return { messageId: node.id, queued: false };
    },
  });

  steeringUpdate(sessionStopUpdate, StopRequestSchema, 'stop', {
    description: 'End the turn in progress with the best answer so far.',
    check: () => {
      open('stop');
      if (!turnRunning) rejectUpdate('stop', 'no turn is in progress, so there is nothing to stop (`close` ends the session)');
    },
    run: async (request) => {
      const s = await ready();
      s.stop = { by: request.by, reason: request.reason };
      s.actions.record({ at: Date.now(), by: request.by, action: 'stop', target: `turn ${s.tree.turn}`, detail: request.reason });
      return { stopping: true as const };
    },
  });

  steeringUpdate(closeUpdate, CloseRequestSchema, 'close', {
    description: 'End the session; returns the transcript.',
    check: () => void open('close'),
    run: async (request) => {
      const s = await ready();
      return serial.run(async () => {
        open('close');
        const at = Date.now();
        s.closed = { by: request.by, at, reason: request.reason };
        s.actions.record({ at, by: request.by, action: 'close', detail: request.reason });
        showDetails();
        // The transcript is the workflow's result; the update only confirms (one copy in history).
        return { closedBy: request.by, at, turns: s.tree.turn };
      });
    },
  });

  registerApprovals(book, {
    log: () => state?.actions,
    finished: () => (state?.closed ? `the session is closed (by ${state.closed.by})` : undefined),
    changed: showDetails,
  });
  setHandler(sessionConversationQuery, () => state?.tree.conversation() ?? []);
  setHandler(sessionTreeQuery, () => state?.tree.view() ?? { kind: 'session', v: 1, head: null, nodes: [], rewinds: [] });
  setHandler(sessionTreeTextQuery, () => (state ? formatSessionTree(state.tree.view()) : ''));
  setHandler(sessionActionsQuery, () => state?.actions.toJSON() ?? []);
  setHandler(sessionProgressQuery, () => ({
    turn: state?.tree.turn ?? 0,
    busy: !serial.idle,
    counters: state?.counters,
    usage: state?.usage,
    pending: book.pending().length,
    messages: state?.tree.size ?? 0,
  }));

  try {
    if (carried) {
      state = SessionState.fromJSON(carried);
      setLedgerGeneration(state.counters.handovers);
      restoreRegistry(carriedRegistry);
    } else {
      await beginRun(options, { kind: 'session', failsInCaller: true });
      await bindRegistry([{ queue: options.toolTaskQueue, tools: options.tools, evaluators: [] }], llm, options.registry, binds);
      const specs = options.tools.length > 0 ? await tools.describeTools(options.tools) : [];
      state = SessionState.create(options, specs, Date.now());
    }
    showDetails();
    const s = state;
    const handoverDue = () => workflowInfo().continueAsNewSuggested || (options.turnsPerRun !== undefined && turnsThisRun >= options.turnsPerRun);
    await condition(() => s.closed !== undefined || (serial.idle && handoverDue()));
    // Updates that arrived meanwhile finish first (a turn, a close): none is lost at a handover.
    await condition(allHandlersFinished);
    if (s.closed) {
      const final = { calls: s.counters.modelCalls, tokens: s.usage.totalTokens };
      const transcript = fitResult('session', result(s));
      reportRun({ status: 'succeeded', ...final });
      return transcript;
    }
    s.counters.handovers += 1;
    const registry = registryToCarry();
    return registry ? await continueAsNew<typeof session>(raw, s.handoverJSON(), registry) : await continueAsNew<typeof session>(raw, s.handoverJSON());
  } catch (err) {
    failRun(err);
  }
}

