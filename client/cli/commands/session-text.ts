import { messageText, type Message } from '../../../core/schemas/messages';

/** `[user] text`, `[assistant] text` or `[assistant] → tool(args)`, `[tool] result`. */
export function formatMessage(message: Message): string {
  const text = messageText(message);
  const calls = message.role === 'assistant' && message.tool_calls ? message.tool_calls.map((c) => `→ ${c.function.name}(${c.function.arguments})`) : [];
  const images = message.role === 'user' && Array.isArray(message.content) ? message.content.filter((p) => p.type === 'image_url').length : 0;
  return [`[${message.role}]${text ? ` ${text}` : ''}${images ? ` (+${images} image${images === 1 ? '' : 's'})` : ''}`, ...calls.map((c) => `  ${c}`)].join('\n');
}
