/**
 * `multiplier` policy: the Saplings quickstart agent (seed 004) with a `multiply(a, b)` tool (or
 * an MCP server's, named `<server>__multiply`).
 *
 * Task (from the first user message, see `parseMultiplicationTask`): "Let x = 9418.343 * 8.11
 * and y = 2x. Calculate (xy)(x^2)." Plan: x = multiply(9418.343, 8.11); y = multiply(2, x);
 * xy = multiply(x, y); x2 = multiply(x, x); result = multiply(xy, x2); then the final answer:
 * a call to the terminal tool (`final_answer`, or any tool whose name contains "final") with
 * `{answer: result}` when offered, else the text "The answer is <result>".
 *
 * State comes from the conversation: each multiply call answered by a tool message (matched
 * by tool_call_id) with a number completes a step. A call is assigned to the pending step whose
 * expected operands it used, else to the first pending step, so a wrong operand's number is
 * REUSED later (a wrong step propagates). Unanswered calls, error results ("Error: ...") and
 * calls with invalid arguments complete nothing, so the step is tried again.
 *
 * Option `p` (default 0): per emitted multiply call, with probability p it errs (choice's
 * rng), uniformly one of: a wrong operand (x: b - 0.1, i.e. 8.01 instead of 8.11; other steps:
 * second operand + 1), invalid arguments (`{"a":"nine"}` or b missing), or an unknown tool
 * name (`multiplyy`).
 *
 * Option `guess` (default 0): per reply, while steps remain, with probability `guess` the
 * agent gives up multiplying and answers at once with a number guessed in its head, off by
 * 1-2 % (a call to the terminal tool when offered, else the text "The answer is <guess>") —
 * the premature answer that greedy search takes and tree search recovers from.
 *
 * Option `listens` (default 0): a player that reads what it is told. When its system prompt
 * carries reflections on earlier failed attempts (LATS) or a person's feedback, its error rate
 * and its urge to guess are both multiplied by 1 - listens: it becomes more careful, not
 * omniscient (it knows no more than the prompt says). Without it reflection cannot change what
 * the player does, and its effect on a search cannot be measured.
 *
 * With `parallel_tool_calls: true`, when both xy and x2 are pending it issues both calls in
 * one message. With tool_choice 'none', no tools, or no multiply tool, it answers in text,
 * finishing the remaining steps in its head. A forced function (tool_choice {function}) is
 * obeyed: final tool -> the best answer so far; multiply -> the next step. With 'required'
 * and nothing left to multiply and no terminal tool, it re-checks: multiply(result, 1).
 */
import type { ChatPolicy, ChatRequest, PolicyReply, PolicyToolCall } from '../types';
import { pick } from '../rng';
import { firstUserText, toolCallsMade, toolMode, toolParameters } from './conversation';
import {
  type MultiplicationTask,
  type StepKey,
  STEP_ORDER,
  parseMultiplicationTask,
  sameNumber,
  stepOperands,
  toolResultNumber,
} from './multiplication-plan';

export interface MultiplierState {
  task: MultiplicationTask;
  /** Numbers obtained from the tool so far, by step. */
  values: Partial<Record<StepKey, number>>;
  /** Steps not yet completed, in plan order. */
  pending: StepKey[];
  /** True when a terminal-tool call was already answered. */
  finalGiven: boolean;
}

/** Whether the system prompt passes on reflections on failed attempts or a person's feedback. */
function toldWhatWentWrong(req: ChatRequest): boolean {
  return req.messages.some((m) => m.role === 'system' && typeof m.content === 'string' && /Reflections on earlier failed attempts|Feedback from a person/.test(m.content));
}

/** `multiply`, or an MCP server's `multiply` as grove names it (`calc__multiply`): what a model would read as the same tool. */
function isMultiplyName(name: string): boolean {
  return name === 'multiply' || name.endsWith('__multiply');
}

function isFinalName(name: string): boolean {
  return /final/i.test(name);
}

/**
 * Reconstructs the agent's progress from the tool calls and tool results of a conversation.
 *
 * @example
 * multiplierState(req).pending // ['xy', 'x2', 'result'] after x and y came back
 */
export function multiplierState(req: ChatRequest): MultiplierState {
  const task = parseMultiplicationTask(firstUserText(req));
  const values: Partial<Record<StepKey, number>> = {};
  let finalGiven = false;
  for (const call of toolCallsMade(req)) {
    if (call.result === undefined) continue;
    if (isFinalName(call.name)) {
      finalGiven = true;
      continue;
    }
    if (!isMultiplyName(call.name)) continue;
    const r = toolResultNumber(call.result);
    const args = call.arguments as { a?: unknown; b?: unknown } | undefined;
    if (r === undefined || !args || typeof args.a !== 'number' || typeof args.b !== 'number') continue;
    const pending = STEP_ORDER.filter((k) => values[k] === undefined);
    const uses = (k: StepKey) => {
      const ops = stepOperands(k, values, task);
      if (!ops) return false;
      const [p, q] = ops;
      const [a, b] = [args.a as number, args.b as number];
      return (sameNumber(p, a) && sameNumber(q, b)) || (sameNumber(p, b) && sameNumber(q, a));
    };
    const key = pending.find(uses) ?? pending.find((k) => stepOperands(k, values, task) !== undefined);
    if (key) values[key] = r;
  }
  return { task, values, pending: STEP_ORDER.filter((k) => values[k] === undefined), finalGiven };
}

/** The answer from the values obtained, finishing missing steps with exact arithmetic. */
export function finishInHead(state: MultiplierState): number {
  const values = { ...state.values };
  for (const k of STEP_ORDER) {
    if (values[k] === undefined) {
      const [a, b] = stepOperands(k, values, state.task)!;
      values[k] = a * b;
    }
  }
  return values.result!;
}

type Mistake = 'none' | 'operand' | 'args' | 'tool';

function multiplyCall(
  key: StepKey,
  state: MultiplierState,
  toolName: string,
  rng: () => number,
  p: number,
): PolicyToolCall {
  const [a, b] = stepOperands(key, state.values, state.task)!;
  const mistake: Mistake = rng() < p ? pick(rng, ['operand', 'args', 'tool'] as const) : 'none';
  switch (mistake) {
    case 'operand':
      return { name: toolName, arguments: { a, b: key === 'x' ? Number((b - 0.1).toPrecision(12)) : b + 1 } };
    case 'args':
      return { name: toolName, arguments: rng() < 0.5 ? { a: 'nine' } : { a } };
    case 'tool':
      return { name: `${toolName}${toolName.slice(-1)}`, arguments: { a, b } };
    default:
      return { name: toolName, arguments: { a, b } };
  }
}

function finalCall(req: ChatRequest, name: string, answer: number): PolicyToolCall {
  const params = toolParameters(req, name) as { properties?: Record<string, { type?: unknown }> } | undefined;
  const props = params?.properties ?? {};
  const key = Object.keys(props)[0] ?? 'answer';
  return { name, arguments: { [key]: props[key]?.type === 'string' ? String(answer) : answer } };
}

export const multiplierPolicy: ChatPolicy = {
  name: 'multiplier',
  description: 'Saplings quickstart agent: multiply tool calls for (xy)(x^2); option p = error rate per step.',
  respond(req, ctx) {
    const state = multiplierState(req);
    const tools = toolMode(req);
    const multiplyName = tools.names.find(isMultiplyName);
    const finalName = tools.names.find(isFinalName);
    const listens = Math.min(1, Math.max(0, Number(ctx.options.listens ?? 0) || 0));
    const care = toldWhatWentWrong(req) ? 1 - listens : 1;
    const p = care * Math.min(1, Math.max(0, Number(ctx.options.p ?? 0) || 0));
    const guess = care * Math.min(1, Math.max(0, Number(ctx.options.guess ?? 0) || 0));
    const forced = typeof tools.choice === 'object' ? tools.choice.name : undefined;
    const text = (): PolicyReply => ({ content: `The answer is ${finishInHead(state)}` });

    return Array.from({ length: ctx.n }, (_, i): PolicyReply => {
      const rng = ctx.rng(i);
      if (tools.choice === 'none') return text();
      if (forced !== undefined && isFinalName(forced)) return { toolCalls: [finalCall(req, forced, finishInHead(state))] };
      const useMultiply = multiplyName !== undefined && (forced === undefined || forced === multiplyName);
      if (!useMultiply) return forced ? { toolCalls: [{ name: forced, arguments: {} }] } : text();
      if (state.pending.length === 0) {
        if (forced === undefined && finalName && !state.finalGiven) {
          return { toolCalls: [finalCall(req, finalName, state.values.result!)] };
        }
        if (tools.choice === 'required' || forced) {
          return { toolCalls: [{ name: multiplyName!, arguments: { a: state.values.result, b: 1 } }] };
        }
        return text();
      }
      if (forced === undefined && guess > 0 && rng() < guess) {
        const wrong = Number((finishInHead(state) * (1.01 + 0.01 * rng())).toPrecision(12));
        return finalName ? { toolCalls: [finalCall(req, finalName, wrong)] } : { content: `The answer is ${wrong}` };
      }
      const next = state.pending[0];
      const keys: StepKey[] =
        tools.parallel && next === 'xy' && state.pending.includes('x2') && forced === undefined ? ['xy', 'x2'] : [next];
      return { toolCalls: keys.map((k) => multiplyCall(k, state, multiplyName!, rng, p)) };
    });
  },
};
