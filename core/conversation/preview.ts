import { messageText, type Message } from '../schemas/messages';

/**
 * A text on one line, cut to `max` characters with an ellipsis: what trees, summaries and the
 * Temporal UI show of a message.
 *
 * @example
 * shorten('a  long\ntext', 6) // 'a lon…'
 */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * A message's text on one line, cut to `max` characters; an assistant message that only calls
 * tools shows their names.
 *
 * @example
 * messagePreview({ role: 'assistant', content: null, tool_calls: [call] }, 60) // '[multiply]'
 */
export function messagePreview(message: Message, max: number): string {
  const text = messageText(message).replace(/\s+/g, ' ').trim();
  const calls = message.role === 'assistant' && message.tool_calls?.length ? `[${message.tool_calls.map((c) => c.function.name).join(', ')}]` : '';
  return shorten(text || calls, max);
}
