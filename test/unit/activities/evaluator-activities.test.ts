import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createEvaluatorActivities, DEFAULT_EVALUATOR_PROMPT, defineEvaluator, type EvaluatorDefinition } from '../../../activities/evaluators';
import { llmConfigFromEnv, type LlmConfig } from '../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { ConversationRefs } from '../../../core/hash/conversation-refs';
import type { EvaluateInput, EvaluatorSpec } from '../../../core/schemas/agent-activities';
import { assistantMessage, toolMessage, userMessage, type Message } from '../../../core/schemas/messages';
import { multiplicationChecker } from '../../../examples/evaluators/multiplication-checker';
import { multiplicationPlan, startModelServer, type ChatPolicy, type ModelServer } from '../../../model-server';
import { rejection } from '../../support/rejection';

const PROMPT = 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).';
const plan = multiplicationPlan();
const value = (key: string) => plan.steps.find((s) => s.key === key)!.value;

/** One assistant message calling multiply(a, b), answered by a tool message with a * b (or `result`). */
function multiplyStep(id: string, a: number, b: number, result = a * b): Message[] {
  return [
    assistantMessage(null, { tool_calls: [{ id, type: 'function', function: { name: 'multiply', arguments: JSON.stringify({ a, b }) } }] }),
    toolMessage(id, String(result), result),
  ];
}

/** The quickstart solved step by step, then the final answer in text. */
function correctTrajectory(): Message[] {
  return [
    userMessage(PROMPT),
    ...plan.steps.flatMap((s, i) => multiplyStep(`call_${i}`, s.a, s.b)),
    assistantMessage(`The answer is ${plan.answer}`),
  ];
}

/** x and y right, then xy from a wrong operand (y + 1), which spoils the result and the answer; x2 is right. */
function wrongTrajectory(): Message[] {
  const [x, y] = [value('x'), value('y')];
  const xy = x * (y + 1);
  const x2 = x * x;
  return [
    userMessage(PROMPT),
    ...multiplyStep('c1', 9418.343, 8.11),
    ...multiplyStep('c2', 2, x),
    ...multiplyStep('c3', x, y + 1),
    ...multiplyStep('c4', x, x),
    ...multiplyStep('c5', xy, x2),
    assistantMessage(`The answer is ${xy * x2}`),
  ];
}

/** Only x and y so far. */
function partialTrajectory(): Message[] {
  return [userMessage(PROMPT), ...multiplyStep('c1', 9418.343, 8.11), ...multiplyStep('c2', 2, value('x'))];
}

/** Answers each choice with a different malformed evaluation. */
const sloppyJudge: ChatPolicy = {
  name: 'sloppy-judge',
  respond: (_req, ctx) =>
    ['The agent is nearly done. Score: 9', 'no idea, sorry', '{"reasoning":"half way","score":"4"}', '{"reasoning":"x","score":99}']
      .slice(0, ctx.n)
      .map((content) => ({ content })),
};

/** A judge that writes a number JSON reads as Infinity: the score that once made a run "solved". */
const infiniteJudge: ChatPolicy = {
  name: 'infinite-judge',
  respond: (_req, ctx) => Array.from({ length: ctx.n }, () => ({ content: '{"reasoning":"Perfect, fully solved.","score":1e999}' })),
};

/** Reports what the request looked like, as a valid evaluation. */
const inspector: ChatPolicy = {
  name: 'inspector',
  respond: (req, ctx) => {
    const seen = {
      roles: req.messages.map((m) => m.role),
      system: req.messages[0].content,
      user: req.messages[1].content,
      temperature: req.temperature,
      max_tokens: req.max_tokens,
      n: req.n ?? null,
      tools: req.tools ?? null,
      response_format: req.response_format,
    };
    return Array.from({ length: ctx.n }, () => ({ content: JSON.stringify({ reasoning: JSON.stringify(seen), score: 6 }) }));
  },
};

/** Reasons at length (about 1,500 tokens) before its score, like a chatty model — unless told it was cut off. */
const verboseJudge: ChatPolicy = {
  name: 'verbose-judge',
  respond: (req, ctx) => {
    const told = String(req.messages[0]?.content ?? '').includes('cut off before the score');
    const reasoning = told ? 'The agent multiplied carefully.' : 'The agent multiplied carefully. '.repeat(190);
    return Array.from({ length: ctx.n }, () => ({ content: JSON.stringify({ reasoning, score: 7 }) }));
  },
};

let server: ModelServer;
let config: LlmConfig;
beforeAll(async () => {
  server = await startModelServer({ policies: [sloppyJudge, inspector, verboseJudge, infiniteJudge] });
  config = llmConfigFromEnv({}, { baseURL: server.baseURL, apiKey: 'k', defaultModel: 'multiplier-judge', sendCallKey: true });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** `env.run` with the activity's own result type (its typings infer `unknown`). */
function inActivity<A extends unknown[], R>(env: MockActivityEnvironment, fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  return env.run(fn, ...args) as Promise<R>;
}

/** A store, the trajectory registered step by step (one path record per message), and the activity in a mock activity context. */
function setup(trajectory: Message[], evaluators: EvaluatorDefinition[] = []) {
  const store = new MemoryMessageStore();
  const refs = new ConversationRefs();
  let path = refs.addPath(null, undefined, [trajectory[0]]);
  for (const m of trajectory.slice(1)) path = refs.addPath(path, undefined, [m]);
  const { groveEvaluate } = createEvaluatorActivities({ llm: config, store, evaluators });
  const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  const evaluate = (evaluator: EvaluatorSpec, input: EvaluateInput['trajectory'] = refs.input(path)) =>
    inActivity(env, groveEvaluate, { evaluator, trajectory: input });
  return { store, refs, path, env, beats, evaluate };
}

describe('the llm evaluator through the scripted model server', () => {
  test('a correct multiplication trajectory scores 1', async () => {
    const { evaluate, beats } = setup(correctTrajectory());
    const result = await evaluate({ name: 'llm' });
    expect(result).toMatchObject({
      score: 1,
      reasoning: 'Correct so far: x, y, xy, x2, result. The task is solved.',
      samples: [1],
      repaired: false,
    });
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
    const [request] = server.stats().requests;
    expect(request).toMatchObject({ model: 'multiplier-judge', n: 1, status: 200, callKey: 'test/00000000-0000-0000-0000-000000000000/test' });
    expect(beats).toContainEqual({ evaluator: 'llm', waitingFor: 'multiplier-judge' });
  });

  test('a wrong one scores what the judge says (0.2: three steps right, a wrong final answer caps it)', async () => {
    const result = await setup(wrongTrajectory()).evaluate({ name: 'llm' });
    expect(result.score).toBe(0.2);
    expect(result.reasoning).toMatch(/^Correct so far: x, y, x2\. The final answer \S+ is wrong\. Missing: xy, result, final answer\.$/);
  });

  test('an unfinished one scores its progress (0.3 for x and y)', async () => {
    const result = await setup(partialTrajectory()).evaluate({ name: 'llm' });
    expect(result).toMatchObject({ score: 0.3, reasoning: 'Correct so far: x, y. Missing: xy, x2, result, final answer.' });
  });

  test('nSamples: 3 is ONE request with n = 3, and the score is the mean', async () => {
    const result = await setup(correctTrajectory()).evaluate({ name: 'llm', nSamples: 3 });
    expect(result).toMatchObject({ score: 1, samples: [1, 1, 1], repaired: false });
    const stats = server.stats();
    expect(stats.byModel['multiplier-judge']).toMatchObject({ received: 1, completed: 1 });
    expect(stats.requests.map((r) => r.n)).toEqual([3]);
  });

  test('malformed samples are repaired or defaulted (an out-of-range score too), never fail the evaluation while one is usable', async () => {
    const result = await setup(partialTrajectory()).evaluate({ name: 'llm', model: 'sloppy-judge', nSamples: 4 });
    expect(result.failed).toBeUndefined();
    expect(result).toMatchObject({
      samples: [0.9, 0.5, 0.4, 0.5],
      score: 0.575,
      reasoning: 'The agent is nearly done. Score: 9',
      repaired: true,
    });
  });

  test('a judge answering "score": 1e999 (Infinity) fails the evaluation, scored 5/10 — never 1.0 — and names the judge model', async () => {
    const result = await setup(correctTrajectory()).evaluate({ name: 'llm', model: 'infinite-judge', nSamples: 2 });
    expect(result).toMatchObject({
      score: 0.5,
      samples: [0.5, 0.5],
      repaired: true,
      failed: 'the judge gave no usable score (score Infinity is not a finite number in [0, 10])',
      model: 'infinite-judge',
    });
  });

  test('a sample cut off by max_tokens before its score is asked again once, told to be brief, not defaulted to 5/10', async () => {
    const result = await setup(partialTrajectory()).evaluate({ name: 'llm', model: 'verbose-judge', nSamples: 2 });
    expect(result).toMatchObject({ samples: [0.7, 0.7], score: 0.7, reasoning: 'The agent multiplied carefully.' });
    const requests = server.stats().requests;
    expect(requests.map((r) => r.n)).toEqual([2, 2]);
    expect(result.usage.completionTokens).toBeGreaterThan(2 * 1024); // both requests are counted
  });

  test('the request: system prompt, the trajectory as text in one user message, strict json_schema, temperature 0.7, max_tokens 1024, no tools', async () => {
    const { evaluate } = setup(partialTrajectory());
    const seen = JSON.parse((await evaluate({ name: 'llm', model: 'inspector' })).reasoning);
    expect(seen).toMatchObject({
      roles: ['system', 'user'],
      system: DEFAULT_EVALUATOR_PROMPT,
      temperature: 0.7,
      max_tokens: 1024,
      n: null,
      tools: null,
      response_format: {
        type: 'json_schema',
        json_schema: {
          strict: true,
          schema: { type: 'object', required: ['reasoning', 'score'], additionalProperties: false, properties: { reasoning: { type: 'string' }, score: { type: 'number' } } },
        },
      },
    });
    expect(seen.user).toBe(
      `Trajectory to grade:\n\n[user] ${PROMPT}\n\n[assistant] → multiply({"a":9418.343,"b":8.11})\n\n[tool multiply] ${value('x')}\n\n` +
        `[assistant] → multiply({"a":2,"b":${value('x')}})\n\n[tool multiply] ${value('y')}`,
    );
    const custom = JSON.parse((await evaluate({ name: 'llm', model: 'inspector', prompt: 'Grade strictly.', temperature: 0, nSamples: 2 })).reasoning);
    expect(custom).toMatchObject({ system: 'Grade strictly.', temperature: 0, n: 2 });
  });

  test('the trajectory rides along once; later evaluations of the same path send only its ref', async () => {
    const { refs, path, evaluate, store } = setup(partialTrajectory());
    const input = refs.input(path);
    await evaluate({ name: 'llm' }, input);
    refs.markStored(input);
    expect([...store.entries.values()].filter((e) => 'add' in e.value)).toHaveLength(5);
    expect(await evaluate({ name: 'llm' }, refs.input(path))).toMatchObject({ score: 0.3 });
  });

  test('an unknown model is a non-retryable GroveModelNotFound, like a chat call', async () => {
    const err = await rejection(setup(partialTrajectory()).evaluate({ name: 'llm', model: 'no-such-model' }));
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'GroveModelNotFound', nonRetryable: true });
    expect((err as Error).message).toMatch(/model "no-such-model" was not found/);
  });

  test('a 429 is a retryable GroveRateLimited', async () => {
    server.addFault({ match: { model: 'multiplier-judge' }, action: { kind: 'status', status: 429 } });
    const err = await rejection(setup(partialTrajectory()).evaluate({ name: 'llm' }));
    expect(err).toMatchObject({ type: 'GroveRateLimited', nonRetryable: false });
  });

  test.each<[string, EvaluatorSpec]>([
    ['nSamples 0', { name: 'llm', nSamples: 0 }],
    ['fractional nSamples', { name: 'llm', nSamples: 1.5 }],
    ['temperature 3', { name: 'llm', temperature: 3 }],
    ['empty prompt', { name: 'llm', prompt: '  ' }],
  ])('an invalid spec (%s) is a non-retryable GroveInvalidInput, before any request', async (_case, spec) => {
    const err = await rejection(setup(partialTrajectory()).evaluate(spec));
    expect(err).toMatchObject({ type: 'GroveInvalidInput', nonRetryable: true });
    expect(server.stats().total.received).toBe(0);
  });
});

describe('custom evaluators', () => {
  test('get the rebuilt trajectory and the run options; usage is zero', async () => {
    const seen: unknown[] = [];
    const lengthJudge = defineEvaluator({
      name: 'length-judge',
      run: (trajectory, { options }) => {
        seen.push(trajectory, options);
        return { score: Math.min(1, trajectory.length / Number(options.target)), reasoning: `${trajectory.length} messages` };
      },
    });
    const { evaluate, beats } = setup(partialTrajectory(), [lengthJudge]);
    expect(await evaluate({ name: 'length-judge', options: { target: 10 } })).toEqual({
      score: 0.5,
      reasoning: '5 messages',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(seen).toEqual([partialTrajectory(), { target: 10 }]);
    expect(beats).toContainEqual({ evaluator: 'length-judge' });
    expect(server.stats().total.received).toBe(0);
  });

  test('may be synchronous and omit the reasoning; options default to {}', async () => {
    let options: unknown;
    const constant = defineEvaluator({ name: 'constant', run: (_t, ctx) => ((options = ctx.options), { score: 0 }) });
    expect(await setup(partialTrajectory(), [constant]).evaluate({ name: 'constant' })).toMatchObject({ score: 0, reasoning: '' });
    expect(options).toEqual({});
  });

  test.each<[string, unknown, RegExp]>([
    ['score above 1', { score: 1.5 }, /returned score 1\.5: a score must be a number in \[0, 1\]/],
    ['negative score', { score: -0.1 }, /returned score -0\.1/],
    ['score NaN', { score: NaN }, /returned score NaN/],
    ['score Infinity', { score: Infinity }, /returned score Infinity/],
    ['a numeric-string score', { score: '0.5' }, /returned score "0\.5"/],
    ['no score', { reasoning: 'forgot' }, /returned score undefined/],
    ['not an object', 0.5, /returned 0\.5 instead of \{ score, reasoning\? \}/],
    ['null', null, /returned null instead of/],
    ['non-string reasoning', { score: 0.5, reasoning: 42 }, /reasoning must be a string/],
  ])('a bad output (%s) is a non-retryable GroveEvaluatorFailed naming the evaluator', async (_case, output, message) => {
    const bad = defineEvaluator({ name: 'bad-scores', run: async () => output as never });
    const err = await rejection(setup(partialTrajectory(), [bad]).evaluate({ name: 'bad-scores' }));
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'GroveEvaluatorFailed', nonRetryable: true });
    expect((err as Error).message).toMatch(/^evaluator "bad-scores" /);
    expect((err as Error).message).toMatch(message);
  });

  test('a throw is a non-retryable GroveEvaluatorFailed with the evaluator name and the error', async () => {
    const boom = defineEvaluator({
      name: 'unit-tests',
      run: () => {
        throw new TypeError('cannot read the code block');
      },
    });
    const err = await rejection(setup(partialTrajectory(), [boom]).evaluate({ name: 'unit-tests' }));
    expect(err).toMatchObject({ type: 'GroveEvaluatorFailed', nonRetryable: true, message: 'evaluator "unit-tests" threw: TypeError: cannot read the code block' });
    expect((err as ApplicationFailure).cause).toBeInstanceOf(TypeError);
  });

  test('an ApplicationFailure thrown on purpose keeps its type and retryability', async () => {
    const flaky = defineEvaluator({
      name: 'remote-grader',
      run: async () => {
        throw ApplicationFailure.retryable('grader service unavailable', 'GraderUnavailable');
      },
    });
    const err = await rejection(setup(partialTrajectory(), [flaky]).evaluate({ name: 'remote-grader' }));
    expect(err).toMatchObject({ type: 'GraderUnavailable', nonRetryable: false });
  });

  test('cancellation reaches the evaluator through its signal and surfaces as a cancellation', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = defineEvaluator({
      name: 'slow',
      run: (_t, { signal }) =>
        new Promise((_resolve, reject) => {
          signal!.addEventListener('abort', () => reject(new Error('stopped')));
          started();
        }),
    });
    const { evaluate, env } = setup(partialTrajectory(), [slow]);
    const pending = rejection(evaluate({ name: 'slow' }));
    await running;
    env.cancel();
    expect(await pending).toBeInstanceOf(CancelledFailure);
  });

  test('an unknown evaluator name is a non-retryable GroveUnknownEvaluator listing the registered ones', async () => {
    const err = await rejection(setup(partialTrajectory(), [multiplicationChecker]).evaluate({ name: 'unit-tests' }));
    expect(err).toMatchObject({ type: 'GroveUnknownEvaluator', nonRetryable: true });
    expect((err as Error).message).toMatch(/^unknown evaluator "unit-tests": this worker has "llm", "multiplication-checker"; register it/);
  });

  test.each<[string, () => Message[], number, RegExp]>([
    ['correct', correctTrajectory, 1, /^The final answer \S+ is correct\.$/],
    ['wrong', wrongTrajectory, 0, /^Correct results: x, y, x2\. Missing: xy, result\. The final answer \S+ is wrong: it should be \S+\.$/],
    ['unfinished', partialTrajectory, 2 / 6, /^Correct results: x, y\. Missing: xy, x2, result\. No final answer yet\.$/],
  ])('the multiplication-checker example scores the %s trajectory exactly', async (_case, trajectory, score, reasoning) => {
    const result = await setup(trajectory(), [multiplicationChecker]).evaluate({ name: 'multiplication-checker' });
    expect(result.score).toBe(score);
    expect(result.reasoning).toMatch(reasoning);
  });

  test('the multiplication-checker reads a final_answer tool call too', async () => {
    const final = assistantMessage(null, {
      tool_calls: [{ id: 'f', type: 'function', function: { name: 'final_answer', arguments: JSON.stringify({ answer: plan.answer }) } }],
    });
    const trajectory = [...correctTrajectory().slice(0, -1), final, toolMessage('f', 'done')];
    expect(await setup(trajectory, [multiplicationChecker]).evaluate({ name: 'multiplication-checker' })).toMatchObject({ score: 1 });
  });
});
