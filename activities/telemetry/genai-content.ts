import type { WireMessage } from './step-telemetry';

/** The longest text one content attribute keeps (a long conversation is cut, and says so). */
const MAX_CONTENT_CHARS = 64_000;

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown };

/**
 * A chat request's messages in the GenAI conventions' `gen_ai.input.messages` shape (JSON text:
 * role and parts), system messages left out (they are `gen_ai.system_instructions`). Recorded
 * only when content capture is on.
 *
 * @example
 * inputMessages([{ role: 'user', content: 'Hi' }]) // '[{"role":"user","parts":[{"type":"text","content":"Hi"}]}]'
 */
export function inputMessages(messages: WireMessage[]): string {
  return capped(messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, parts: partsOf(m) })));
}

/** The system messages as `gen_ai.system_instructions`, or undefined when there are none. */
export function systemInstructions(messages: WireMessage[]): string | undefined {
  const system = messages.filter((m) => m.role === 'system').map((m) => ({ type: 'text', content: textOf(m.content) }));
  return system.length > 0 ? capped(system) : undefined;
}

/** A response's choices as `gen_ai.output.messages`. */
export function outputMessages(choices: Array<{ message: WireMessage; finishReason?: string }>): string {
  return capped(choices.map((c) => ({ role: c.message.role, parts: partsOf(c.message), finish_reason: c.finishReason ?? 'stop' })));
}

function partsOf(message: WireMessage): Part[] {
  if (message.role === 'tool') return [{ type: 'tool_call_response', id: message.tool_call_id ?? '', response: textOf(message.content) }];
  const parts: Part[] = [];
  const text = textOf(message.content);
  if (text !== '') parts.push({ type: 'text', content: text });
  for (const call of message.tool_calls ?? []) {
    if (call.function) parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: parsedOrText(call.function.arguments) });
  }
  return parts;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  return '';
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function capped(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}… [cut at ${MAX_CONTENT_CHARS} characters]` : text;
}
