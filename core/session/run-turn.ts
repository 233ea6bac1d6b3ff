import { AICall } from '../airetry/ai-call';
import { compileCheck, type CompiledCheck, type JudgeRunner } from '../airetry/checks';
import { textOutput } from '../airetry/output-parsers';
import { renderTemplate } from '../conversation/template';
import { FEEDBACK_TEMPLATE } from '../feedback';
import type { ConversationRefs } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import { withConversation } from '../hash/with-conversation';
import type { RunToolInput, RunToolResult } from '../schemas/agent-activities';
import type { ChatParams } from '../schemas/chat-params';
import type { ChatActivityResult, ChatRequest } from '../schemas/llm-call';
import { toolMessage, userMessage, type AssistantMessage, type ContentPart, type Message, type ToolCall } from '../schemas/messages';
import type { SendResult, TurnEnd } from './session-result';
import type { SessionOptions } from './session-input';
import { rejectionMessage, type ApprovalAsk, type ApprovalOutcome } from '../steering/approvals';
import { REWIND_TOOL_NAME, REWIND_TOOL_SPEC, rewindArguments, rewindCorrection } from './rewind-tool';
import type { SessionMessageKind } from './message-tree';
import { droppedCallsAnswer, runnableCalls } from '../conversation/fit-message';
import type { SessionState } from './session-state';

/**
 * What a session's turn needs from its environment. In a workflow every method is an activity
 * (or a durable wait) and `nowMs` is workflow time; in-process (tests) they are plain calls.
 */
export interface SessionPort {
  chat(refs: ConversationRefs, path: Ref, request: ChatRequest): Promise<ChatActivityResult>;
  runTool(input: RunToolInput, summary: string): Promise<RunToolResult>;
  /** Waits for a person's decision on a tool call that requires approval. */
  approve(ask: ApprovalAsk): Promise<ApprovalOutcome>;
  /** Runs an `llmJudge` check on an answer. */
  judge: JudgeRunner;
  nowMs(): number;
  /** After each model call or tool round (progress, the UI's details). */
  onStep?(): void;
}

export interface SessionContext {
  state: SessionState;
  options: SessionOptions;
  port: SessionPort;
}

/**
 * One turn of a durable conversation: the user's message, then model calls until the model
 * answers in text — running the tools it calls (after a person's approval where a tool requires
 * it), handling its `rewind` tool, feeding back failed checks — within `maxSteps` model calls.
 * Feedback a person gave meanwhile is added before the next model call; a stop ends the turn
 * with the best answer so far. Deterministic given the port's answers.
 *
 * @example
 * const result = await runTurn(ctx, 'What is the capital of France?', 'ana');
 * result.reply; // 'Paris.'
 */
export async function runTurn(ctx: SessionContext, content: string | ContentPart[], by: string): Promise<SendResult> {
  const { state, options, port } = ctx;
  const tree = state.tree;
  const turn = tree.turn + 1;
  state.counters.turns += 1;
  tree.append(userMessage(content), { turn, at: port.nowMs(), by });
  const checks = options.checks.map((spec, i) => compileCheck(spec, i, port.judge));
  let retriesLeft = options.checkRetries;
  let calls = 0;
  const end = (ended: TurnEnd, extra: Partial<SendResult> = {}): SendResult => {
    const best = bestReply(state, turn);
    return { reply: best?.message.content ?? null, messageId: best?.id ?? null, turn, ended, calls, ...extra };
  };

  for (;;) {
    for (const feedback of state.feedbackQueue.splice(0)) state.addFeedback(feedback);
    if (state.stop) return end('stopped');
    if (calls >= options.maxSteps) return end('maxSteps');
    const result = await port.chat(tree.refs, tree.headPath!, {
      model: options.model,
      params: chatParams(ctx),
      runId: `t${turn}.${calls}`,
      summary: `turn ${turn}: model call ${calls + 1}`,
    });
    calls += 1;
    state.counters.modelCalls += 1;
    state.addUsage(result.usage);
    const reply = result.choices[0].message;
    const replyNode = tree.append(reply, { turn, at: port.nowMs() });
    port.onStep?.();

    if (reply.tool_calls?.length) {
      const rewound = await answerToolCalls(ctx, turn, replyNode.id, reply);
      port.onStep?.();
      if (rewound) return end('rewound', { reply: rewound.content, messageId: rewound.replacementId, rewind: rewound.rewind });
      continue;
    }

    const outcomes = await runChecks(checks, reply, options.model);
    const failed = outcomes.find((o) => !o.passed);
    if (!failed) return end('answered', checks.length ? { checks: outcomes.map(({ name, passed }) => ({ name, passed })) } : {});
    if (retriesLeft === 0) return end('checksFailed', { checks: outcomes.map(({ name, passed }) => ({ name, passed })) });
    retriesLeft -= 1;
    state.counters.checkRetries += 1;
    const text = renderTemplate(FEEDBACK_TEMPLATE, { feedback: failed.feedback });
    append(ctx, userMessage(text), turn, { by: `check ${failed.name}`, kind: 'feedback' });
  }
}

/** The model's text answers this turn, the latest first: what a turn that ends early returns. */
function bestReply(state: SessionState, turn: number): { id: number; message: AssistantMessage } | undefined {
  const nodes = state.tree.liveNodes();
  for (let i = nodes.length - 1; i >= 0 && nodes[i].turn === turn; i--) {
    const message = state.tree.message(nodes[i].id);
    if (message?.role === 'assistant' && message.content) return { id: nodes[i].id, message };
  }
  return undefined;
}

/**
 * Answers every tool call of a reply, in the order made: a valid `rewind` rewinds the
 * conversation and ends the turn (the reply and its other calls are pruned with everything
 * after the target); an invalid one gets a corrective tool message; the other calls run as
 * activities, each after a person approved it when its tool requires approval.
 */
async function answerToolCalls(
  ctx: SessionContext,
  turn: number,
  replyId: number,
  reply: AssistantMessage,
): Promise<{ content: string; replacementId: number; rewind: NonNullable<SendResult['rewind']> } | undefined> {
  const { state, options, port } = ctx;
  const tree = state.tree;
  const answers = new Map<ToolCall, { message: Message; stored: boolean; kind?: SessionMessageKind }>();
  const calls = reply.tool_calls ?? [];
  // Calls grove dropped (too many in one answer) get one answer, written here: no tool ran.
  const dropped = droppedCallsAnswer(reply);
  if (dropped) answers.set(calls[calls.length - 1]!, { message: dropped, stored: false, kind: 'dropped' });
  for (const call of runnableCalls(reply)) {
    if (!options.rewindTool || call.function.name !== REWIND_TOOL_NAME) continue;
    const args = rewindArguments(call);
    const resolved = args.ok ? tree.resolveTarget({ n: args.n }, { before: replyId }) : args;
    if (args.ok && resolved.ok) {
      const at = port.nowMs();
      const { record } = tree.rewind({ n: args.n }, args.content, { at, by: 'model', source: 'tool', before: replyId });
      state.counters.rewinds += 1;
      return {
        content: args.content,
        replacementId: record.replacementId,
        rewind: { n: record.n, targetId: record.targetId, replacementId: record.replacementId, abandoned: record.abandoned },
      };
    }
    const reason = resolved.ok ? '' : resolved.reason;
    answers.set(call, { message: toolMessage(call.id, rewindCorrection(args.ok ? args.n : undefined, reason)), stored: false, kind: 'correction' });
  }

  const path = tree.headPath!;
  const offered = [...state.specs.map((s) => s.name), ...(options.rewindTool ? [REWIND_TOOL_NAME] : [])];
  await Promise.all(
    calls
      .filter((call) => !answers.has(call))
      .map(async (call) => {
        const spec = state.specs.find((s) => s.name === call.function.name);
        let approval: { by: string; at: number } | undefined;
        if (spec?.requiresApproval) {
          const outcome = await port.approve({ call, where: `turn ${turn}` });
          if (outcome.decision === 'reject') {
            answers.set(call, { message: rejectionMessage(call, outcome), stored: false, kind: 'rejection' });
            return;
          }
          approval = { by: outcome.by, at: outcome.at };
        }
        const result = await withConversation(tree.refs, path, (trajectory) =>
          port.runTool({ trajectory, call, offered, ...(approval ? { approval } : {}) }, `turn ${turn}: tool ${call.function.name}`),
        );
        state.counters.toolRuns += 1;
        answers.set(call, { message: result.message, stored: true });
      }),
  );
  for (const call of calls) {
    const answer = answers.get(call)!;
    const node = append(ctx, answer.message, turn, answer.kind ? { kind: answer.kind } : {});
    if (answer.stored) tree.refs.markRefsStored([node.ref]);
  }
  return undefined;
}

function append(ctx: SessionContext, message: Message, turn: number, meta: { by?: string; kind?: SessionMessageKind }) {
  return ctx.state.tree.append(message, { turn, at: ctx.port.nowMs(), ...meta });
}

async function runChecks(checks: CompiledCheck[], reply: AssistantMessage, model: string | undefined) {
  if (checks.length === 0) return [];
  // A check looks at a call's active answer: a call holding just this reply.
  const call = new AICall<unknown>([reply], { kind: 'generate', parser: textOutput, model });
  const outcomes: { name: string; passed: boolean; feedback: string }[] = [];
  for (const check of checks) {
    const passed = (await check.condition(call)) === true;
    const feedback = passed ? '' : typeof check.feedback === 'function' ? await check.feedback(call) : check.feedback;
    outcomes.push({ name: check.name, passed, feedback });
    if (!passed) break;
  }
  return outcomes;
}

function chatParams(ctx: SessionContext): ChatParams {
  const { state, options } = ctx;
  const specs = [...state.specs, ...(options.rewindTool ? [REWIND_TOOL_SPEC] : [])];
  const params: ChatParams = { ...(options.apiKwargs ?? {}) };
  if (options.seed !== undefined) params.seed = options.seed;
  if (specs.length > 0) {
    params.tools = specs.map((s) => ({
      type: 'function',
      function: { name: s.name, description: s.description, parameters: s.parameters, ...(s.strict ? { strict: true } : {}) },
    }));
    params.tool_choice ??= 'auto';
  }
  return params;
}
