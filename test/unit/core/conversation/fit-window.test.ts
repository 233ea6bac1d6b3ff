import { ELIDED_TOOL_OUTPUT, estimateTokens, fitToWindow } from '../../../../core/conversation/fit-window';
import { assistantMessage, systemMessage, toolMessage, userMessage, type Message } from '../../../../core/schemas/messages';

/** A task, then `steps` tool-call turns each with a 4,000-character output, then a closing question. */
function agentConversation(steps: number): Message[] {
  const turns = Array.from({ length: steps }, (_, i) => [
    assistantMessage(null, { tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'search', arguments: `{"q":"step ${i}"}` } }] }),
    toolMessage(`c${i}`, `result ${i} `.repeat(400)),
  ]).flat();
  return [systemMessage('You use tools.'), userMessage('Find the answer.'), ...turns, userMessage('And now?')];
}
const total = (m: Message[]) => m.reduce((a, x) => a + estimateTokens(x), 0);

test('a conversation that fits comes back as the same array', () => {
  const conv = agentConversation(2);
  expect(fitToWindow(conv, total(conv))).toEqual({ messages: conv, elided: 0, dropped: 0, tokens: total(conv) });
  expect(fitToWindow(conv, total(conv)).messages).toBe(conv);
});

test('the oldest tool outputs are elided first; the calls stay, so the model still sees what it did', () => {
  const conv = agentConversation(4); // ~1,000 tokens per output
  const fit = fitToWindow(conv, total(conv) - 1_500);
  expect(fit).toMatchObject({ elided: 2, dropped: 0 });
  expect(fit.tokens).toBeLessThanOrEqual(total(conv) - 1_500);
  expect(fit.messages).toHaveLength(conv.length);
  expect(fit.messages.filter((m) => m.role === 'tool').map((m) => m.content === ELIDED_TOOL_OUTPUT)).toEqual([true, true, false, false]);
  expect(fit.messages.filter((m) => m.role === 'assistant')).toEqual(conv.filter((m) => m.role === 'assistant'));
});

test('when eliding is not enough, the oldest middle turns go whole: no tool result is ever orphaned', () => {
  const conv = agentConversation(30);
  const fit = fitToWindow(conv, 300);
  expect(fit.dropped).toBeGreaterThan(0);
  expect(fit.tokens).toBeLessThanOrEqual(300);
  // The system prompt, the task and the last message are kept.
  expect(fit.messages.slice(0, 2)).toEqual(conv.slice(0, 2));
  expect(fit.messages.at(-1)).toEqual(conv.at(-1));
  const calls = new Set(fit.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [])));
  for (const m of fit.messages) if (m.role === 'tool') expect(calls.has(m.tool_call_id)).toBe(true);
  for (const id of calls) expect(fit.messages.some((m) => m.role === 'tool' && m.tool_call_id === id)).toBe(true);
});

test('a trailing tool result keeps the turn that called it', () => {
  const conv = agentConversation(6).slice(0, -1); // ends on a tool result
  const fit = fitToWindow(conv, 200);
  expect(fit.messages.slice(-2)).toEqual([conv.at(-2), conv.at(-1)]);
});

test('one that cannot fit comes back as short as it can be', () => {
  const conv = [userMessage('x'.repeat(40_000)), assistantMessage('ok'), userMessage('y'.repeat(40_000))];
  const fit = fitToWindow(conv, 1_000);
  expect(fit.messages).toEqual([conv[0], conv[2]]);
  expect(fit.tokens).toBeGreaterThan(1_000);
});
