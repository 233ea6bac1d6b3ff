import { type Message, messageText } from '../schemas/messages';

/** What replaces a tool output dropped to fit the window (the call stays, so the turn stays valid). */
export const ELIDED_TOOL_OUTPUT = "[tool output dropped to fit the model's context window]";

export interface FitResult {
  messages: Message[];
  /** Tool outputs whose content was replaced by `ELIDED_TOOL_OUTPUT`. */
  elided: number;
  /** Messages left out whole (an assistant tool-call turn goes with its tool results). */
  dropped: number;
  /** Estimated tokens of what is sent. */
  tokens: number;
}

/**
 * A rough token count for budgeting: a quarter of the characters (content, tool names and
 * arguments) plus a few tokens of message framing. Over-estimates code and English slightly,
 * which is the safe side for a window.
 *
 * @example
 * estimateTokens(userMessage('Say hi!')) // 6
 */
export function estimateTokens(message: Message): number {
  let chars = messageText(message).length;
  if (message.role === 'assistant') for (const c of message.tool_calls ?? []) chars += c.function.name.length + c.function.arguments.length;
  return Math.ceil(chars / 4) + 4;
}

/**
 * Shortens a conversation about to be sent so that it fits `maxTokens` (the model's window less
 * the room kept for the answer), the way the seeds' `truncate_conversation` keeps the ends and
 * gives up the middle, but safe for tool use:
 * 1. the leading system messages, the first user message (the task) and the last message are
 *    always kept;
 * 2. the oldest tool outputs go first: their content is replaced by a short marker, the call
 *    that produced them stays, so the model still sees what it did;
 * 3. if that is not enough, the oldest middle turns are left out whole — an assistant message
 *    with tool calls together with their results, so no tool result is ever orphaned.
 * A conversation that fits comes back as the same array. One that cannot fit even so comes back
 * as short as it can be; the provider's context-length error then says so.
 *
 * @example
 * const { messages, elided, dropped } = fitToWindow(conversation, 8192 - 512);
 */
export function fitToWindow(conversation: Message[], maxTokens: number): FitResult {
  const sizes = conversation.map(estimateTokens);
  let total = sizes.reduce((a, b) => a + b, 0);
  if (total <= maxTokens) return { messages: conversation, elided: 0, dropped: 0, tokens: total };

  const keep = protectedIndexes(conversation);
  const out: Array<Message | undefined> = [...conversation];
  let elided = 0;
  for (let i = 0; i < out.length && total > maxTokens; i++) {
    const m = out[i]!;
    if (m.role !== 'tool' || keep.has(i)) continue;
    const short: Message = { ...m, content: ELIDED_TOOL_OUTPUT };
    const saved = sizes[i]! - estimateTokens(short);
    if (saved <= 0) continue;
    out[i] = short;
    sizes[i] = sizes[i]! - saved;
    total -= saved;
    elided++;
  }

  let dropped = 0;
  for (const group of middleGroups(conversation, keep)) {
    if (total <= maxTokens) break;
    for (const i of group) {
      total -= sizes[i]!;
      out[i] = undefined;
      dropped++;
    }
  }
  return { messages: out.filter((m): m is Message => m !== undefined), elided, dropped, tokens: total };
}

/** Leading system messages, the first user message, and the last message with the turn it answers. */
function protectedIndexes(conv: Message[]): Set<number> {
  const keep = new Set<number>();
  let i = 0;
  for (; i < conv.length && conv[i]!.role === 'system'; i++) keep.add(i);
  const firstUser = conv.findIndex((m) => m.role === 'user');
  if (firstUser >= 0) keep.add(firstUser);
  let last = conv.length - 1;
  keep.add(last);
  // A trailing run of tool results belongs to the assistant turn that called them.
  while (last > 0 && conv[last]!.role === 'tool') keep.add(--last);
  return keep;
}

/** The unprotected messages, oldest first, grouped so a tool-call turn and its results go together. */
function middleGroups(conv: Message[], keep: Set<number>): number[][] {
  const groups: number[][] = [];
  for (let i = 0; i < conv.length; i++) {
    if (keep.has(i)) continue;
    const group = [i];
    const m = conv[i]!;
    if (m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0) {
      while (i + 1 < conv.length && conv[i + 1]!.role === 'tool' && !keep.has(i + 1)) group.push(++i);
    }
    if (m.role === 'tool') continue; // a result outside its call's group is never dropped alone
    groups.push(group);
  }
  return groups;
}
