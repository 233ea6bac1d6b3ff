import { AICall, airetry, evaluateCondition, lastOutput, textOutput, type AICallPort } from '../../../core/airetry';
import { RetryBudgetError, CallStateError } from '../../../core/errors';
import { formatSamples } from '../../../core/format-tree';
import { messageRef } from '../../../core/hash/refs';
import type { ChatParams } from '../../../core/schemas/chat-params';
import { messageText, systemMessage, userMessage, type Message } from '../../../core/schemas/messages';

/** An in-memory port whose "model" is a function of the conversation it is sent. */
function scriptedPort(answer: (conv: Message[], params: ChatParams, i: number) => string) {
  const sent: { conversation: Message[]; params: ChatParams; summary?: string }[] = [];
  const slept: number[] = [];
  const logs: string[] = [];
  const port: AICallPort = {
    async chat(refs, path, request) {
      const conversation = await refs.resolve(path);
      const params = request.params ?? {};
      sent.push({ conversation, params, summary: request.summary });
      const choices = Array.from({ length: params.n ?? 1 }, (_, i) => {
        const message = { role: 'assistant' as const, content: answer(conversation, params, i), runId: request.runId, sampleId: i };
        return { message, ref: messageRef(message), finishReason: 'stop' };
      });
      return { choices, usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, model: 'scripted' };
    },
    async sleep(ms) {
      slept.push(ms);
    },
    log: (m) => logs.push(m),
  };
  return { port, sent, slept, logs };
}

const prompt = [systemMessage('Act as a helpful AI assistant'), userMessage('Say hi!')];
const call = (port: AICallPort, config = {}) => new AICall(prompt, { kind: 'generate', parser: textOutput, port, config });

test('airetry before run is an error (vector 16)', async () => {
  await expect(airetry(() => true, call(scriptedPort(() => 'x').port))).rejects.toThrow(CallStateError);
});

test('maxRetries 0 and a passing check: one call, success (vector 17)', async () => {
  const { port } = scriptedPort(() => 'Hello!');
  const out = await call(port, { maxRetries: 0 }).run();
  await airetry(() => true, out);
  expect(out.success).toBe(true);
  expect(out.conversation.map((m) => [m.role, messageText(m)])).toEqual([
    ['system', 'Act as a helpful AI assistant'],
    ['user', 'Say hi!'],
    ['assistant', 'Hello!'],
  ]);
  expect(out.config.retries).toBe(0);
  expect(out.config.calls).toBe(1);
});

test('maxRetries 2, always failing, no feedback: S,U,A,A,A and the chain stats (vector 18)', async () => {
  const { port } = scriptedPort(() => 'Hello!');
  const out = await call(port, { maxRetries: 2 }).run();
  await airetry(() => false, out);
  expect(out.conversation.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'assistant', 'assistant']);
  expect(out.config).toMatchObject({ retries: 2, calls: 3 });
  expect(out.success).toBe(false);
  const chain = out.samples.preorder().map((n) => `${n.wins}/${n.visits}`);
  expect(chain).toEqual(['0/3', '0/3', '0/2', '0/1']);
});

test('throw: true raises the budget error with the seeds message', async () => {
  const { port } = scriptedPort(() => 'Hello!');
  const out = await call(port, { maxRetries: 2 }).run();
  const err = await airetry(() => false, out, '', { throw: true }).catch((e: unknown) => e);
  expect(RetryBudgetError.isInstance(err)).toBe(true);
  expect((err as Error).message).toBe('Maximum retry budget reached (Retries: 2/2, Calls: 3/99).');
  expect((err as Error).name).toBe('GroveRetryBudgetExhausted');
});

test('feedback becomes a new user message each retry, never touching stored samples (vector 19)', async () => {
  const { port, sent } = scriptedPort(() => 'Hello!');
  const out = await call(port, { maxRetries: 2 }).run();
  await airetry(() => false, out, 'Retry feedback');
  const conv = out.conversation;
  expect(conv).toHaveLength(7);
  expect(conv.filter((m) => m.role === 'assistant')).toHaveLength(3);
  expect(conv.filter((m) => m.role === 'user')).toHaveLength(3);
  expect(messageText(conv[conv.length - 4])).toBe('### Feedback from Evaluator\n\nRetry feedback\n');
  expect(messageText(conv[conv.length - 2])).toBe('### Feedback from Evaluator\n\nRetry feedback\n');
  // The first sample still holds only its own answer: feedback went into the children.
  expect(out.samples.node(1).data).toEqual({ add: [expect.objectContaining({ role: 'assistant', content: 'Hello!' })] });
  expect(sent[2].conversation).toHaveLength(6);
});

test('in-place feedback replaces the last user message with all feedback so far', async () => {
  const { port } = scriptedPort(() => 'Hello!');
  const out = await call(port, { maxRetries: 2, feedbackInplace: true }).run();
  await airetry(() => false, out, 'Be shorter');
  const conv = out.conversation;
  expect(conv.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  expect(messageText(conv[1])).toBe(
    'Say hi!\n\n### Feedback from Evaluator\n\nBe shorter\n----------\n\nBe shorter\n',
  );
});

test('evaluateCondition: active root passes (vector 12)', async () => {
  const c = call(scriptedPort(() => '').port);
  expect(await evaluateCondition(c, () => true)).toEqual({ passed: true, sampleId: 0 });
});

function twoNodeCall() {
  const c = call(scriptedPort(() => '').port);
  c.samples.setSuccess(0, true);
  c.samples.expand(0, { add: [{ role: 'assistant', content: 'child' }] }, { success: true });
  return c;
}

test('evaluateCondition: both fail, feedback on both, the child is selected (vector 13)', async () => {
  const c = twoNodeCall();
  const result = await evaluateCondition(c, () => false, 'Test Feedback');
  expect(result).toEqual({ passed: false, sampleId: 1 });
  expect(c.samples.node(0)).toMatchObject({ feedback: '\nTest Feedback', success: false, wins: 0, visits: 2 });
  expect(c.samples.node(1)).toMatchObject({ feedback: '\nTest Feedback', success: false, wins: 0, visits: 1 });
  expect(c.activeSampleId).toBe(0);
});

test('evaluateCondition: function feedback, and expensive feedback only on the selected sample (vector 14)', async () => {
  const c = twoNodeCall();
  await evaluateCondition(c, () => false, () => 'Function Feedback');
  expect(c.samples.node(1).feedback).toBe('\nFunction Feedback');

  const d = twoNodeCall();
  const seen: number[] = [];
  const result = await evaluateCondition(d, () => false, (x) => (seen.push(x.activeSampleId), `fb for ${x.activeSampleId}`), { feedbackExpensive: true });
  expect(result.sampleId).toBe(1);
  expect(d.samples.node(1).feedback).toBe('\nfb for 1');
  expect(d.samples.node(0).feedback).toBe('');
  expect(seen).toEqual([1]); // computed once, with the selected sample active
});

test('evaluateCondition: evaluateAll false checks only the active sample (vector 15)', async () => {
  const c = twoNodeCall();
  await evaluateCondition(c, () => false, '', { evaluateAll: false });
  expect(c.samples.node(0).success).toBe(false);
  expect(c.samples.node(1).success).toBe(true);
});

test('samples per round: n per request, requests in parallel, temperatures nudged, calls capped', async () => {
  const { port, sent } = scriptedPort((_c, p, i) => `t=${p.temperature} i=${i}`);
  const out = await call(port, { nSamples: 3 }).run();
  expect(sent.map((s) => s.params.temperature)).toEqual([0.701, 0.702, 0.703]);
  expect(out.samples.childrenOf(0)).toHaveLength(3);
  expect(out.config.calls).toBe(3);

  const two = scriptedPort((_c, _p, i) => `i=${i}`);
  const viaN = new AICall(prompt, { kind: 'generate', parser: textOutput, port: two.port, config: { nSamples: 2, maxCalls: 3 }, apiKwargs: { n: 5, temperature: 0.2 } });
  await viaN.run();
  expect(two.sent).toHaveLength(1);
  expect(two.sent[0].params).toMatchObject({ n: 2, temperature: 0.201 }); // n capped to nSamples; the user's temperature wins
  await viaN.run();
  expect(viaN.config.calls).toBe(3); // maxCalls caps the second round at one sample
  expect(two.sent[1].params.n).toBe(1);
});

test('a failed model call is kept as an error with catchErrors, and rethrown without', async () => {
  const failing: AICallPort = {
    chat: async () => {
      throw Object.assign(new Error('model "x" was not found'), { type: 'GroveModelNotFound' });
    },
    sleep: async () => {},
  };
  const caught = await new AICall(prompt, { kind: 'generate', parser: textOutput, port: failing, config: { catchErrors: true } }).run();
  expect(caught.success).toBe(false);
  expect(caught.error).toEqual({ message: 'model "x" was not found', type: 'GroveModelNotFound' });
  expect(caught.samples.size).toBe(1); // the prompt is still at the root
  await expect(new AICall(prompt, { kind: 'generate', parser: textOutput, port: failing }).run()).rejects.toThrow('not found');
});

test('catchErrors then a working model: airetry(isValid) retries after retryDelayMs and keeps the prompt', async () => {
  let fail = true;
  const { port, slept } = scriptedPort(() => 'hi');
  const flaky: AICallPort = { ...port, chat: (...args) => (fail ? Promise.reject(new Error('boom')) : port.chat(...args)) };
  const out = await new AICall(prompt, { kind: 'generate', parser: textOutput, port: flaky, config: { catchErrors: true, retryDelayMs: 2000, maxRetries: 2 } }).run();
  expect(out.success).toBe(false);
  fail = false;
  await airetry((x) => x.success === true, out);
  expect(out.success).toBe(true);
  expect(lastOutput(out)).toBe('hi');
  expect(out.conversation.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  expect(slept).toEqual([2000]);
});

test('the same seed gives the same Thompson-sampled tree', async () => {
  const run = async (seed: number) => {
    const { port } = scriptedPort((c, _p, i) => `${c.length}-${i}`);
    const { seededRandom } = await import('../../../core/random');
    const out = new AICall(prompt, {
      kind: 'generate', parser: textOutput, port, rng: seededRandom(seed),
      config: { nSamples: 2, maxRetries: 6, scoring: 'thompson' }, apiKwargs: { n: 2 },
    });
    await out.run();
    await airetry((x) => lastOutput(x).startsWith('9'), out, 'no');
    return formatSamples(out.samples, { scoring: null });
  };
  expect(await run(7)).toBe(await run(7));
  const shapes = new Set(await Promise.all([1, 2, 3, 4, 5, 6].map(run)));
  expect(shapes.size).toBeGreaterThan(1);
});
