import { AICall, airetry, textOutput, type AICallPort } from '../../../../core/airetry';
import { runChecks } from '../../../../core/airetry/ready-made';
import { messageRef } from '../../../../core/hash/refs';
import { AiretryInputSchema } from '../../../../core/airetry/airetry-input';
import { sha256Hex } from '../../../../core/hash/sha256';
import { DEFAULT_MODEL_NAME } from '../../../../core/verdicts/verdict';
import { messageText, systemMessage, userMessage, type Message } from '../../../../core/schemas/messages';

/** A port whose "model" answers from the conversation: "blue" until a feedback mentions yellow. */
function colorPort() {
  const sent: Message[][] = [];
  const port: AICallPort = {
    async chat(refs, path, request) {
      const conversation = await refs.resolve(path);
      sent.push(conversation);
      const said = conversation.map((m) => messageText(m)).join('\n');
      const choices = Array.from({ length: request.params?.n ?? 1 }, (_, i) => {
        const message = { role: 'assistant' as const, content: /yellow/i.test(said.split('Pick a color.')[1] ?? '') ? 'yellow' : 'blue', runId: request.runId, sampleId: i };
        return { message, ref: messageRef(message), finishReason: 'stop' };
      });
      return { choices, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: 'scripted' };
    },
    sleep: async () => {},
  };
  return { port, sent };
}

const prompt = [systemMessage('Be brief.'), userMessage('Pick a color.')];
const isYellow = (c: AICall<string>) => c.output === 'yellow';

test('feedback on a sample is a failed check by a person: the call retries from it with the text', async () => {
  const { port, sent } = colorPort();
  const call = new AICall(prompt, { kind: 'generate', parser: textOutput, port, config: { maxRetries: 0 } });
  await call.run();
  const item = call.steering.push({ kind: 'feedback', nodeId: 1, text: 'Think of the sun: yellow.' });
  await airetry(isYellow, call, 'Wrong color.');
  expect(item.outcome).toEqual({ ok: true, value: { activeSampleId: 2, abandoned: [], added: [2] } });
  // The person's failed check (a loss), then its child's pass backpropagated (a win).
  expect(call.samples.node(1)).toMatchObject({ success: false, feedback: 'Think of the sun: yellow.', visits: 2, wins: 1 });
  expect(call.output).toBe('yellow');
  expect(call.success).toBe(true);
  expect(messageText(sent[1][sent[1].length - 1])).toBe('### Feedback from Evaluator\nThink of the sun: yellow.\n');
});

test('a rewind with content replaces an answer: the replacement is judged, what grew from the old one is abandoned', async () => {
  const { port } = colorPort();
  const call = new AICall(prompt, { kind: 'generate', parser: textOutput, port, config: { maxRetries: 1 } });
  await call.run();
  await airetry(isYellow, call, 'Wrong color.'); // blue, feedback, blue again: 1 → 2
  expect(call.samples.node(2).parent).toBe(1);
  const item = call.steering.push({ kind: 'rewind', nodeId: 1, content: 'yellow' });
  await airetry(isYellow, call, 'Wrong color.');
  expect(item.outcome).toEqual({ ok: true, value: { activeSampleId: 3, abandoned: [1, 2], added: [3] } });
  expect(call.samples.root.children).toEqual([3]);
  expect(call.conversation.map((m) => messageText(m))).toEqual(['Be brief.', 'Pick a color.', 'yellow']);
  expect(call.success).toBe(true);
  expect(call.config.calls).toBe(2); // the replacement cost no call
  // What a rewind cannot do is refused, the call goes on unchanged.
  const bad = [
    call.steering.push({ kind: 'rewind', nodeId: 2 }),
    call.steering.push({ kind: 'rewind', nodeId: 0, content: 'red' }),
    call.steering.push({ kind: 'feedback', nodeId: 42, text: 'x' }),
  ];
  await airetry(isYellow, call);
  expect(bad.map((b) => b.outcome)).toEqual([
    { ok: false, reason: 'sample 2 is on an abandoned branch: intervene on a sample of the live tree' },
    { ok: false, reason: 'sample 0 is the prompt: only answers can be replaced (rewind it without content to sample again)' },
    { ok: false, reason: 'unknown node id 42 (tree has 4 nodes)' },
  ]);
});

test('a stop ends the rounds with the best sample so far: no more samples, no judge asked, the checks said of the answer it has', async () => {
  const { port, sent } = colorPort();
  const input = AiretryInputSchema.parse({ prompt: 'Pick a color.', checks: [{ kind: 'equals', value: 'yellow' }, { kind: 'lowercase' }, { kind: 'llmJudge', question: 'Is it yellow?' }] });
  const call = new AICall(prompt, { kind: 'generate', parser: textOutput, port, config: { maxRetries: 5 } });
  const outcomes = await runChecks(call as AICall<unknown>, input, async () => true, () => {});
  expect(outcomes.every((o) => o.passed)).toBe(false); // never yellow without help, budget spent
  const stopped = new AICall(prompt, { kind: 'generate', parser: textOutput, port, config: { maxRetries: 5 } });
  stopped.stopped = { by: 'ana' };
  const before = sent.length;
  let judged = 0;
  const evidence = { sampleId: 1, outputSha256: sha256Hex('blue') };
  expect(await runChecks(stopped as AICall<unknown>, input, async () => (judged++, true))).toEqual([
    { name: 'equals#0', kind: 'equals', passed: false, ...evidence },
    { name: 'lowercase#1', kind: 'lowercase', passed: true, ...evidence },
    { name: 'llmJudge#2', kind: 'llmJudge', passed: false, skipped: true, ...evidence, judge: { model: DEFAULT_MODEL_NAME, selfJudged: true, check: 'llmJudge#2' } },
  ]);
  expect(sent.length - before).toBe(1); // the first samples only: no retry after the stop
  expect(judged).toBe(0);
});

test('an intervention that arrives after the last check makes the checks run again on what it produced', async () => {
  const { port } = colorPort();
  const input = AiretryInputSchema.parse({ prompt: 'Pick a color.', checks: [{ kind: 'lowercase' }] });
  const call = new AICall(prompt, { kind: 'generate', parser: textOutput, port });
  let pushed = false;
  const outcomes = await runChecks(call as AICall<unknown>, input, async () => true, () => {
    if (!pushed) call.steering.push({ kind: 'feedback', nodeId: call.activeSampleId, text: 'Say yellow.' });
    pushed = true;
  });
  expect(outcomes).toEqual([{ name: 'lowercase#0', kind: 'lowercase', passed: true, sampleId: call.activeSampleId, outputSha256: sha256Hex('yellow') }]);
  expect(call.output).toBe('yellow');
});
