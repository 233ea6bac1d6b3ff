import type { ChatRequest } from '../types';
import { messageText } from '../policies/conversation';

/** node-llama-cpp's chat history items (the subset grove writes). */
export type HistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };

/**
 * An OpenAI chat request as a node-llama-cpp history plus the prompt to answer: system and user
 * messages as they are, assistant tool calls as the JSON the local model writes for them, tool
 * results as user turns naming the tool (a 135M model has no tool role in its template).
 *
 * @example
 * toLlamaHistory({ model: 'smollm2', messages: [{ role: 'user', content: 'hi' }] })  // { history: [], prompt: 'hi' }
 */
export function toLlamaHistory(req: ChatRequest, extraSystem?: string): { history: HistoryItem[]; prompt: string } {
  const items: HistoryItem[] = [];
  const names = new Map<string, string>();
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') items.push({ type: 'system', text: messageText(m) });
    else if (m.role === 'user') items.push({ type: 'user', text: messageText(m) });
    else if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return JSON.stringify({ tool: c.function.name, arguments: safeJson(c.function.arguments) });
      });
      items.push({ type: 'model', response: [[messageText(m), ...calls].filter(Boolean).join('\n')] });
    } else if (m.role === 'tool') {
      items.push({ type: 'user', text: `Result of ${names.get(m.tool_call_id) ?? 'the tool'}: ${messageText(m)}` });
    }
  }
  if (extraSystem) {
    const first = items.findIndex((i) => i.type === 'system');
    if (first >= 0) items[first] = { type: 'system', text: `${(items[first] as { text: string }).text}\n\n${extraSystem}` };
    else items.unshift({ type: 'system', text: extraSystem });
  }
  const last = items.at(-1);
  if (last?.type === 'user') return { history: items.slice(0, -1), prompt: last.text };
  return { history: items, prompt: '' };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
