import { messageText, type Message } from '../../core/schemas/messages';
import { shorten } from '../../core/conversation/preview';

/**
 * Node labels: one line that says what a node did — the tool it called with its key arguments,
 * or the first words of its answer — in a person's words rather than JSON. The page cuts a label
 * to the room it has, so these may be longer than any one zoom level shows.
 */

/** A label's most characters (the page shows what fits). */
export const LABEL_CHARS = 90;

/**
 * A search step's label from its preview (the short text the search keeps per node, at most 40
 * characters, possibly cut with `…`): tool calls lose their JSON punctuation, a text answer its
 * quotes.
 *
 * @example
 * stepLabel('multiply({"a":9418.343,"b":8.11})'); // 'multiply(a: 9418.343, b: 8.11)'
 * stepLabel('"The answer is 42"');                // 'answer: The answer is 42'
 */
export function stepLabel(preview: string): string {
  if (preview.startsWith('"')) return `answer: ${unquote(preview) || '(empty)'}`;
  return preview.replace(/\(\{/g, '(').replace(/\}\)/g, ')').replace(/"([A-Za-z_][\w-]*)":/g, '$1: ').replace(/,(?=["\w{[-])/g, ', ');
}

/**
 * What a message says, on one line: the tools it calls with their arguments, or its first words.
 *
 * @example
 * messageLabel({ role: 'assistant', content: null, tool_calls: [call] }); // 'multiply(a: 2, b: 3)'
 */
export function messageLabel(message: Message | undefined): string {
  if (!message) return '(no answer)';
  if (message.role === 'assistant' && message.tool_calls?.length) {
    return shorten(message.tool_calls.map((c) => stepLabel(`${c.function.name}(${c.function.arguments.replace(/\s+/g, '')})`)).join(', '), LABEL_CHARS);
  }
  const text = messageText(message);
  return text.trim() ? shorten(text, LABEL_CHARS) : '(empty answer)';
}

/**
 * The root's label: the start of the task.
 *
 * @example
 * promptLabel('Let x = 9418.343 * 8.11 and y = 2x.'); // 'prompt: Let x = 9418.343 * 8.11 and y = 2x.'
 */
export function promptLabel(prompt: string | undefined): string {
  return prompt?.trim() ? `prompt: ${shorten(prompt, LABEL_CHARS - 8)}` : 'prompt';
}

/** A JSON string's text; a cut one (`"The ans…`) loses its opening quote and escapes. */
function unquote(quoted: string): string {
  try {
    const text = JSON.parse(quoted) as unknown;
    if (typeof text === 'string') return shorten(text, LABEL_CHARS);
  } catch {
    // cut at the preview's length: read it as far as it goes
  }
  return shorten(quoted.slice(1).replace(/"$/, '').replace(/\\n/g, ' ').replace(/\\(["\\])/g, '$1'), LABEL_CHARS);
}
