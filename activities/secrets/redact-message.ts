import type { AssistantMessage } from '../../core/schemas/messages';

/**
 * A model's answer with known secrets blanked out of everything it says: its text, its refusal
 * and its tool calls' arguments (a tool then gets the redacted value, never the key), names and
 * ids (a model can name a tool anything; a redacted name matches no tool and fails as unknown).
 * Applied before the answer is stored or returned, so its content address is that of what was
 * stored.
 *
 * @example
 * redactMessage({ role: 'assistant', content: `the key is ${key}` }, secretRedactor()); // content: 'the key is [redacted OPENAI_API_KEY]'
 */
export function redactMessage(message: AssistantMessage, redact: (text: string) => string): AssistantMessage {
  const out: AssistantMessage = { ...message, content: message.content === null ? null : redact(message.content) };
  if (typeof message.refusal === 'string') out.refusal = redact(message.refusal);
  if (message.tool_calls) {
    out.tool_calls = message.tool_calls.map((c) => ({ ...c, id: redact(c.id), function: { ...c.function, name: redact(c.function.name), arguments: redact(c.function.arguments) } }));
  }
  return out;
}
