import { messageText, type Message } from '../../../core/schemas/messages';
import type { SessionResult } from '../../../core/session/session-result';

/**
 * A closed session as `grove session close` and `grove result` print it: the transcript, then who
 * closed it and what it took.
 *
 * @example
 * sessionLines(result); // ['[user] Hi', '[assistant] Hello!', '', 'closed by ana after 1 turn, 1 model call, 0 rewinds']
 */
export function sessionLines(result: Pick<SessionResult, 'conversation' | 'closedBy' | 'turns' | 'counters'>): string[] {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  return [
    ...result.conversation.map(formatMessage),
    '',
    `closed by ${result.closedBy} after ${count(result.turns, 'turn')}, ${count(result.counters.modelCalls, 'model call')}, ${count(result.counters.rewinds, 'rewind')}`,
  ];
}

/** `[user] text`, `[assistant] text` or `[assistant] → tool(args)`, `[tool] result`. */
export function formatMessage(message: Message): string {
  const text = messageText(message);
  const calls = message.role === 'assistant' && message.tool_calls ? message.tool_calls.map((c) => `→ ${c.function.name}(${c.function.arguments})`) : [];
  const images = message.role === 'user' && Array.isArray(message.content) ? message.content.filter((p) => p.type === 'image_url').length : 0;
  return [`[${message.role}]${text ? ` ${text}` : ''}${images ? ` (+${images} image${images === 1 ? '' : 's'})` : ''}`, ...calls.map((c) => `  ${c}`)].join('\n');
}
