/**
 * An answer as one text, the way readers of a stream are shown it: its content, then a line per
 * tool call (`→ multiply({"a":2,"b":3})`), then its refusal. While the answer streams the last
 * tool call is left open — its closing parenthesis comes when it is done — so each view of a
 * growing answer begins with the one before it.
 *
 * @example
 * answerText({ content: 'Let me compute.', toolCalls: [{ name: 'multiply', arguments: '{"a":2' }] }, false);
 * // 'Let me compute.\n→ multiply({"a":2'
 */
export function answerText(answer: { content: string | null; toolCalls?: Array<{ name: string; arguments: string }>; refusal?: string | null }, done: boolean): string {
  const calls = answer.toolCalls ?? [];
  const lines = calls.map((c, j) => `→ ${c.name}(${c.arguments}${done || j < calls.length - 1 ? ')' : ''}`);
  return [answer.content ?? '', ...lines, answer.refusal ? `refusal: ${answer.refusal}` : ''].filter(Boolean).join('\n');
}
