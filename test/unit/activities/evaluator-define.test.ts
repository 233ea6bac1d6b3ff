import { createEvaluatorActivities, defineEvaluator, runEvaluator } from '../../../activities/evaluators';
import { llmConfigFromEnv } from '../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { InvalidConfigError } from '../../../core/errors';
import { userMessage } from '../../../core/schemas/messages';

const run = () => ({ score: 1 });
const llm = llmConfigFromEnv({}, { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' });

describe('defineEvaluator', () => {
  test('returns a valid definition unchanged', () => {
    const def = { name: 'unit-tests', run };
    expect(defineEvaluator(def)).toBe(def);
    for (const name of ['a', 'tests_v2', 'team.style:strict', 'org/grader-1']) expect(defineEvaluator({ name, run }).name).toBe(name);
  });

  test('"llm" is reserved for the built-in evaluator', () => {
    expect(() => defineEvaluator({ name: 'llm', run })).toThrow(InvalidConfigError);
    expect(() => defineEvaluator({ name: 'llm', run })).toThrow(/"llm" is reserved for grove's built-in LLM evaluator/);
  });

  test.each(['', ' padded', 'has space', '-leading-dash', 'x'.repeat(101), 42, undefined])('rejects the name %p', (name) => {
    expect(() => defineEvaluator({ name, run } as never)).toThrow(/^invalid evaluator name .*: use 1-100 letters, digits/);
  });

  test('needs a run function', () => {
    expect(() => defineEvaluator({ name: 'x' } as never)).toThrow(/evaluator "x" has no run function/);
    expect(() => defineEvaluator(null as never)).toThrow(InvalidConfigError);
  });

  test('fast is a boolean when given', () => {
    expect(defineEvaluator({ name: 'x', fast: true, run }).fast).toBe(true);
    expect(() => defineEvaluator({ name: 'x', fast: 'yes', run } as never)).toThrow(/evaluator "x": fast must be a boolean/);
  });
});

describe('groveDescribeEvaluator', () => {
  const { groveDescribeEvaluator } = createEvaluatorActivities({
    llm,
    store: new MemoryMessageStore(),
    evaluators: [defineEvaluator({ name: 'quick', fast: true, run }), defineEvaluator({ name: 'tests', run })],
  });

  test('says which evaluators were declared fast (the workflow runs those as local activities)', async () => {
    expect(await groveDescribeEvaluator({ name: 'quick' })).toEqual({ name: 'quick', fast: true });
    expect(await groveDescribeEvaluator({ name: 'tests' })).toEqual({ name: 'tests', fast: false });
  });

  test('an unknown name fails there, non-retryable, listing the registered ones', async () => {
    await expect(groveDescribeEvaluator({ name: 'grader' })).rejects.toMatchObject({
      type: 'GroveUnknownEvaluator',
      nonRetryable: true,
      message: expect.stringMatching(/^unknown evaluator "grader": this worker has "llm", "quick", "tests"/),
    });
  });
});

describe('runEvaluator (outside an activity)', () => {
  test('returns a valid verdict as is, awaiting async evaluators', async () => {
    const def = defineEvaluator({ name: 'async', run: async (t) => ({ score: t.length / 4, reasoning: 'r' }) });
    expect(await runEvaluator(def, [userMessage('a')], { options: {} })).toEqual({ score: 0.25, reasoning: 'r' });
  });

  test('a non-Error throw is still described', async () => {
    const def = defineEvaluator({
      name: 'odd',
      run: () => {
        throw { code: 7 };
      },
    });
    await expect(runEvaluator(def, [], { options: {} })).rejects.toMatchObject({
      type: 'GroveEvaluatorFailed',
      message: 'evaluator "odd" threw: {"code":7}',
    });
  });
});

describe('createEvaluatorActivities', () => {
  test('checks the evaluators at start-up: bad names and duplicates fail before any run', () => {
    const store = new MemoryMessageStore();
    expect(() => createEvaluatorActivities({ llm, store, evaluators: [{ name: 'llm', run }] })).toThrow(/reserved/);
    expect(() => createEvaluatorActivities({ llm, store, evaluators: [{ name: 'a', run }, { name: 'a', run }] })).toThrow(
      /two evaluators are named "a"/,
    );
    expect(Object.keys(createEvaluatorActivities({ llm, store }))).toEqual(['groveEvaluate', 'groveDescribeEvaluator']);
  });
});
