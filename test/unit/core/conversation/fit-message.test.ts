import { droppedCallsAnswer, fitMessage, fitMessages, runnableCalls } from '../../../../core/conversation/fit-message';
import { messageRef } from '../../../../core/hash/refs';
import { jsonBytes } from '../../../../core/payload-limits';
import type { AssistantMessage, ToolMessage } from '../../../../core/schemas/messages';

const limits = { maxBytes: 256 * 1024, maxToolCalls: 64 };
const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, type: 'function' as const, function: { name: 'multiply', arguments: `{"a":${i},"b":2}` } }));

test('a message that fits travels as it is', () => {
  const answer: AssistantMessage = { role: 'assistant', content: 'hi', tool_calls: calls(64) };
  expect(fitMessage(answer, limits)).toEqual({ message: answer });
});

test('a 3 MB answer keeps its first 4,000 characters and a note; the whole one is named by ref', () => {
  const answer: AssistantMessage = { role: 'assistant', content: 'y'.repeat(3 * 1024 * 1024), runId: 'r0', sampleId: 0 };
  const { message, whole } = fitMessage(answer, limits);
  expect(whole).toBe(answer);
  expect(message.cut).toEqual({ ref: messageRef(answer), bytes: jsonBytes(answer), keptChars: 4000 });
  expect(message.content!.startsWith('y'.repeat(4000) + '\n\n[grove: this answer was 3.0 MB, over the 256 KB a message may carry')).toBe(true);
  expect(message.content).toContain(`The whole answer is message ${messageRef(answer)} in the message store.]`);
  expect([message.runId, message.sampleId]).toEqual(['r0', 0]);
  expect(jsonBytes(message)).toBeLessThan(8 * 1024);
});

test('2,000 tool calls: the first 64 run, the 65th carries one answer for all the dropped ones', () => {
  const answer: AssistantMessage = { role: 'assistant', content: null, tool_calls: calls(2000) };
  const { message, whole } = fitMessage(answer, limits);
  expect(whole).toBe(answer);
  expect(message.tool_calls).toHaveLength(65);
  expect(message.cut).toEqual({ ref: messageRef(answer), bytes: jsonBytes(answer), droppedToolCalls: 1936 });
  expect(runnableCalls(message).map((c) => c.id)).toEqual(calls(64).map((c) => c.id));
  expect(droppedCallsAnswer(message)).toEqual({
    role: 'tool',
    tool_call_id: 'call_64',
    content:
      'Error: not run. This answer made 2,000 tool calls and grove ran only the first 64: this call and the 1,935 after it were dropped ' +
      "(at most the operator's maxToolCallsPerAnswer run per answer, and an answer must fit in what a message may carry). Ask again for the calls you still need, fewer at a time.",
  });
  expect(droppedCallsAnswer(answer)).toBeUndefined();
  expect(runnableCalls(answer)).toHaveLength(2000);
});

test('tool calls too large to carry are dropped like those over the ceiling', () => {
  const huge = { id: 'call_big', type: 'function' as const, function: { name: 'save_note', arguments: JSON.stringify({ text: 'z'.repeat(400_000) }) } };
  const answer: AssistantMessage = { role: 'assistant', content: null, tool_calls: [...calls(2), huge, ...calls(1)] };
  const { message } = fitMessage(answer, limits);
  expect(runnableCalls(message).map((c) => c.id)).toEqual(['call_0', 'call_1']);
  // The carrier's arguments are what did not fit: they are emptied.
  expect(message.tool_calls![2]).toEqual({ ...huge, function: { name: 'save_note', arguments: '{}' } });
  expect(message.cut!.droppedToolCalls).toBe(2);
  expect(jsonBytes(message)).toBeLessThanOrEqual(limits.maxBytes);
});

test('a 3 MB tool output keeps its head and loses its raw output', () => {
  const output: ToolMessage = { role: 'tool', tool_call_id: 'c', content: 'o'.repeat(3 * 1024 * 1024), rawOutput: { big: true } };
  const { message, whole } = fitMessage(output, limits);
  expect(whole).toBe(output);
  expect(message).toEqual({ role: 'tool', tool_call_id: 'c', content: expect.stringContaining('[grove: this tool output was 3.0 MB'), cut: { ref: messageRef(output), bytes: jsonBytes(output), keptChars: 4000 } });
});

test('a trajectory too large for one result has its largest messages cut, tool calls kept', () => {
  const big: AssistantMessage = { role: 'assistant', content: 'b'.repeat(900_000), tool_calls: calls(1) };
  const messages = [{ role: 'user' as const, content: 'u'.repeat(200_000) }, big, { role: 'tool' as const, tool_call_id: 'call_0', content: 't'.repeat(600_000) }];
  const fitted = fitMessages(messages, 1024 * 1024);
  expect(jsonBytes(fitted)).toBeLessThanOrEqual(1024 * 1024);
  expect(fitted[0]).toBe(messages[0]); // small enough once the others are cut
  expect((fitted[1] as AssistantMessage).tool_calls).toEqual(big.tool_calls);
  expect((fitted[1] as AssistantMessage).cut).toMatchObject({ ref: messageRef(big), keptChars: 4000 });
  expect(fitMessages(messages.slice(0, 1), 1024 * 1024)).toEqual(messages.slice(0, 1));
});
