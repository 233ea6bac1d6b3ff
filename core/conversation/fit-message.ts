import { formatBytes, jsonBytes } from '../payload-limits';
import { messageRef } from '../hash/refs';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../schemas/messages';

/** What one message may carry through Temporal (the operator's policy sets both). */
export interface MessageLimits {
  /** Largest message, as JSON, carried inline; a larger one is cut and kept whole in the store. */
  maxBytes: number;
  /** Tool calls of one answer that run; the rest are dropped. */
  maxToolCalls: number;
  /** Keep an answer's tool calls as they are, cutting only its text (a trajectory whose calls already ran). */
  keepToolCalls?: boolean;
}

/** Characters of a cut text that are kept. */
export const CUT_HEAD_CHARS = 4000;

/**
 * A message as it may travel through Temporal, and the whole one when it had to be cut. An
 * answer with more tool calls than `maxToolCalls` keeps the first ones and one more — the first
 * dropped call, which the run answers with a tool message saying what was dropped (see
 * `droppedCallsAnswer`), so the conversation stays valid. A message larger than `maxBytes` keeps
 * the first 4,000 characters of its text, followed by a note naming its size, the limit and
 * where the whole message is; a tool output loses its `rawOutput`, and tool calls that do not
 * fit are dropped like the calls over the ceiling. Either way `cut` names the whole message —
 * the caller stores it under `cut.ref` — so nothing a model sends is lost, and no activity
 * result grows past what Temporal carries.
 *
 * @example
 * const { message, whole } = fitMessage(answer, { maxBytes: 262_144, maxToolCalls: 64 });
 * if (whole) await store.put({ [message.cut!.ref]: whole });
 */
export function fitMessage<M extends Message>(message: M, limits: MessageLimits): { message: M; whole?: M } {
  const bytes = jsonBytes(message);
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  if (bytes <= limits.maxBytes && calls.length <= limits.maxToolCalls) return { message };
  const ref = messageRef(message);
  const what = message.role === 'tool' ? 'tool output' : 'answer';
  const cutText = (text: string) => `${text.slice(0, CUT_HEAD_CHARS)}\n\n[grove: this ${what} was ${formatBytes(bytes)}, over the ${formatBytes(limits.maxBytes)} a message may carry (the operator's maxInlineMessageBytes); only its first ${CUT_HEAD_CHARS.toLocaleString('en-US')} characters are kept here. The whole ${what} is message ${ref} in the message store.]`;
  const oversized = bytes > limits.maxBytes;
  if (message.role === 'tool') {
    const { rawOutput: _dropped, ...rest } = message as ToolMessage;
    return { message: { ...rest, content: cutText(rest.content), cut: { ref, bytes, keptChars: CUT_HEAD_CHARS } } as M, whole: message };
  }
  if (message.role !== 'assistant') return { message }; // prompts are checked before a run starts
  const answer = message as AssistantMessage;
  const kept: AssistantMessage = { ...answer, ...(oversized && answer.content ? { content: cutText(answer.content) } : {}) };
  if (oversized && answer.refusal) kept.refusal = cutText(answer.refusal);
  const textCut = oversized && Boolean(answer.content || answer.refusal) ? { keptChars: CUT_HEAD_CHARS } : {};
  if (limits.keepToolCalls) return { message: { ...kept, cut: { ref, bytes, ...textCut } } as M, whole: message };
  delete kept.tool_calls;
  // Calls run in order while they fit: at most maxToolCalls, and within the room the text leaves.
  let room = limits.maxBytes - jsonBytes(kept) - 200;
  const runnable: ToolCall[] = [];
  for (const call of calls) {
    const size = jsonBytes(call);
    if (runnable.length >= limits.maxToolCalls || size > room) break;
    runnable.push(call);
    room -= size;
  }
  const dropped = calls.length - runnable.length;
  if (calls.length > 0) {
    // The first dropped call stays (its arguments emptied when they are what did not fit) to carry the answer for all of them.
    const carrier = dropped > 0 ? calls[runnable.length]! : undefined;
    const fits = carrier && jsonBytes(carrier) <= room;
    kept.tool_calls = carrier ? [...runnable, fits ? carrier : { ...carrier, function: { ...carrier.function, arguments: '{}' } }] : runnable;
  }
  return { message: { ...kept, cut: { ref, bytes, ...(dropped > 0 ? { droppedToolCalls: dropped } : {}), ...textCut } } as M, whole: message };
}

/**
 * The tool calls of an answer that run: all of them, unless grove dropped some (`fitMessage`),
 * when the last one kept only carries the answer for the dropped ones.
 *
 * @example
 * for (const call of runnableCalls(answer)) await runTool(call);
 */
export function runnableCalls(message: AssistantMessage): ToolCall[] {
  const calls = message.tool_calls ?? [];
  return message.cut?.droppedToolCalls ? calls.slice(0, -1) : calls;
}

/**
 * The tool message that answers an answer's dropped tool calls (on the call that carries them),
 * or undefined when none were dropped. The run writes it itself: no tool ran.
 *
 * @example
 * droppedCallsAnswer(answer)?.content // 'Error: not run. This answer made 2,000 tool calls; …'
 */
export function droppedCallsAnswer(message: AssistantMessage): ToolMessage | undefined {
  const dropped = message.cut?.droppedToolCalls;
  const carrier = message.tool_calls?.[message.tool_calls.length - 1];
  if (!dropped || !carrier) return undefined;
  const made = (message.tool_calls!.length - 1 + dropped).toLocaleString('en-US');
  return {
    role: 'tool',
    tool_call_id: carrier.id,
    content:
      `Error: not run. This answer made ${made} tool calls and grove ran only the first ${message.tool_calls!.length - 1}: ` +
      `this call and the ${(dropped - 1).toLocaleString('en-US')} after it were dropped (at most the operator's maxToolCallsPerAnswer run per answer, and an answer must fit in what a message may carry). ` +
      'Ask again for the calls you still need, fewer at a time.',
  };
}

/**
 * `messages` within `budgetBytes` as JSON: the largest cut first (to 16 KB each, then smaller),
 * until they fit — a final trajectory that must travel as one result. Messages already small
 * stay as they are; each cut one names the whole message in the store (`cut.ref`), which holds
 * it already (it is the conversation's own).
 *
 * @example
 * const trajectory = fitMessages(await resolveConversation(store, path), RESULT_BUDGET_BYTES);
 */
export function fitMessages(messages: Message[], budgetBytes: number): Message[] {
  const out = [...messages];
  const sizes = out.map(jsonBytes);
  const total = () => sizes.reduce((a, b) => a + b, out.length + 1);
  for (let maxBytes = 16_384; maxBytes >= 1024 && total() > budgetBytes; maxBytes /= 4) {
    for (const i of sizes.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]!)) {
      if (total() <= budgetBytes || sizes[i]! <= maxBytes) break;
      out[i] = fitMessage(out[i]!, { maxBytes, maxToolCalls: Infinity, keepToolCalls: true }).message;
      sizes[i] = jsonBytes(out[i]);
    }
  }
  return out;
}
