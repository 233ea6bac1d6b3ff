import { sha256Hex } from '../../core/hash/sha256';
import { WorkflowFailedError } from '@temporalio/client';
import { describeFailure } from '../../client/cli/describe-failure';
import { SampleTree } from '../../core/tree/sample-tree';
import { integrationSuite } from '../support/integration-suite';
import { colorGameInput } from '../support/inputs';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

const suite = integrationSuite('airetry');
const withWorker = suite.withWorker;

const colorInput = colorGameInput;

const SAMPLE_LINE = /^(?:(?:│  |   )*(?:├─ |└─ ))?SampleNode\(id: \d+, stats: \d+\/\d+, score: [\d.]+, length: \d+\)$/;

test('the seeds color game as example workflow code reaches "yellow", printing the seeds tree shape', async () => {
  const result = await withWorker((taskQueue) =>
    suite.env.client.workflow.execute('colorGame', { taskQueue, workflowId: uniqueTaskQueue('color-game'), args: [{ seed: 3 }] }),
  );
  expect(result.output).toBe('yellow');
  expect(result.success).toBe(true);
  expect(result.retries).toBeGreaterThanOrEqual(1);
  const lines = (result.treeText as string).split('\n').map((l: string) => l.replace(/ → .*$/, ''));
  expect(lines[0]).toMatch(/^SampleNode\(id: 0, stats: \d+\/\d+, score: [\d.]+, length: 2\)$/);
  for (const line of lines) expect(line).toMatch(SAMPLE_LINE);
  expect(lines.length).toBe(result.calls + 1);
});

test('llm_guesser(33) converges on 33', async () => {
  const result = await withWorker((taskQueue) =>
    suite.env.client.workflow.execute('llmGuesser', { taskQueue, workflowId: uniqueTaskQueue('guess'), args: [33, { seed: 2 }] }),
  );
  expect(result.output).toBe('33');
  expect(result.success).toBe(true);
  expect(result.calls).toBeLessThanOrEqual(18);
});

test('the seeds aiExtract example: a wrong key is fixed by one retry', async () => {
  const result = await withWorker((taskQueue) =>
    suite.env.client.workflow.execute('foodExtraction', { taskQueue, workflowId: uniqueTaskQueue('food'), args: [] }),
  );
  expect(result.output).toEqual({ name: 'apple', adjectives: ['delicious', 'juicy'] });
  expect(result.retries).toBe(1);
  expect(result.success).toBe(true);
});

test('the ready-made airetry workflow runs JSON checks; queries show the tree while and after it runs', async () => {
  const { result, tree, treeText, progress } = await withWorker(async (taskQueue) => {
    const handle = await groveClient(suite.env, taskQueue).start('airetry', colorInput());
    const result = await handle.result();
    return {
      result,
      tree: await handle.query('tree'),
      treeText: (await handle.query('treeText', { answers: true })) as string,
      progress: await handle.query('progress'),
    };
  });
  expect(result.output).toBe('yellow');
  expect(result.success).toBe(true);
  // Each claim is about the returned answer, and says so.
  const evidence = { passed: true, sampleId: result.activeSampleId, outputSha256: sha256Hex('yellow') };
  expect(result.checks).toEqual([
    { name: 'maxWords#0', kind: 'maxWords', ...evidence },
    { name: 'lowercase#1', kind: 'lowercase', ...evidence },
    { name: 'startsWith#2', kind: 'startsWith', ...evidence },
  ]);
  expect(result.verdict).toEqual({ by: 'checks', verified: true });
  expect(tree).toEqual(result.tree);
  expect(SampleTree.fromJSON(tree).size).toBe(result.calls + 1);
  expect(treeText).toContain('→ "yellow" (active)');
  // The progress query's counters end where the result's do; whether the answer passes is the result's to say, not the query's.
  expect(progress).toMatchObject({ lastRoundOk: true, calls: result.calls, retries: result.retries });
  expect(progress).not.toHaveProperty('success');
  const last = result.conversation[result.conversation.length - 1];
  expect(last).toMatchObject({ role: 'assistant', content: 'yellow' });
  // Feedback reached the model as user messages in the winning conversation.
  expect(result.conversation.some((m: { role: string; content: unknown }) => m.role === 'user' && String(m.content).includes('### Feedback from Evaluator'))).toBe(true);
});

test('maxRetries 0: one round, no retry, success false', async () => {
  const result = await withWorker((tq) =>
    groveClient(suite.env, tq).run('airetry', colorInput({ config: { maxRetries: 0, nSamples: 2 }, checks: [{ kind: 'equals', value: 'nope' }] })),
  );
  expect(result).toMatchObject({ success: false, retries: 0, calls: 2 });
});

test('maxCalls caps the samples drawn', async () => {
  const result = await withWorker((tq) =>
    groveClient(suite.env, tq).run('airetry', colorInput({ config: { maxCalls: 5, nSamples: 2 }, checks: [{ kind: 'equals', value: 'nope' }] })),
  );
  expect(result.calls).toBe(5);
  expect(result.success).toBe(false);
});

test('throwOnBudget fails the run with GroveRetryBudgetExhausted', async () => {
  const err = await withWorker((tq) =>
    groveClient(suite.env, tq)
      .run('airetry', colorInput({ config: { maxRetries: 1 }, throwOnBudget: true, checks: [{ kind: 'equals', value: 'nope' }] }))
      .catch((e: unknown) => e),
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect(describeFailure(err)).toBe('Maximum retry budget reached (Retries: 1/1, Calls: 2/99).');
  expect(((err as WorkflowFailedError).cause as { type?: string }).type).toBe('GroveRetryBudgetExhausted');
});

test('catchErrors: a failing model call is caught, the retry waits on a durable timer, then succeeds', async () => {
  suite.model.addFault({ match: { model: 'echo', contains: 'catch me' }, action: { kind: 'status', status: 500 }, times: 1 });
  const { result, history } = await withWorker(async (tq) => {
    const handle = await groveClient(suite.env, tq).start('airetry', {
      prompt: 'catch me',
      model: 'echo',
      config: { catchErrors: true, retryDelayMs: 1500, maxRetries: 2 },
      llm: { maxAttempts: 1 },
      checks: [{ kind: 'contains', value: 'catch me' }],
    });
    return { result: await handle.result(), history: await handle.fetchHistory() };
  });
  expect(result.success).toBe(true);
  expect(result.output).toBe('Echo: catch me');
  expect(result.retries).toBe(1);
  const timers = (history.events ?? []).filter((e: { timerStartedEventAttributes?: unknown }) => e.timerStartedEventAttributes);
  expect(timers).toHaveLength(1);
  const timeout = timers[0].timerStartedEventAttributes!.startToFireTimeout!;
  expect(Number(timeout.seconds ?? 0) + (timeout.nanos ?? 0) / 1e9).toBeCloseTo(1.5);
});

test('an LLM judge check runs as an activity and gates the answer', async () => {
  const result = await withWorker((tq) =>
    groveClient(suite.env, tq).run('airetry', colorInput({
      checks: [{ kind: 'llmJudge', question: 'Is this the color I am thinking of?', model: 'classifier?accept=yellow', feedback: 'It starts with "y"' }],
    })),
  );
  expect(result.success).toBe(true);
  expect(String(result.output)).toMatch(/yellow/i);
  expect(suite.model.stats().byModel['classifier']?.completed ?? 0).toBeGreaterThan(0);
});

test('Thompson sampling and UCT runs are reproducible from a seed', async () => {
  const runTwice = (scoring: 'uct' | 'thompson', seed: number) =>
    withWorker(async (tq) => {
      const grove = groveClient(suite.env, tq);
      const input = colorInput({ seed, config: { nSamples: 2, scoring, maxRetries: 6 } });
      const a = await grove.run('airetry', input);
      const b = await grove.run('airetry', input);
      return [a.tree, b.tree];
    });
  const [u1, u2] = await runTwice('uct', 4);
  expect(u1).toEqual(u2);
  const [t1, t2] = await runTwice('thompson', 4);
  expect(t1).toEqual(t2);
});

test('bad input is rejected before the run starts, naming the field', async () => {
  const grove = groveClient(suite.env, uniqueTaskQueue('airetry-invalid'));
  await expect(grove.start('airetry', colorInput({ config: { maxRetries: -1 } }))).rejects.toThrow(
    /^invalid airetry input: config\.maxRetries: Too small/,
  );
  await expect(grove.start('airetry', colorInput({ checks: [{ kind: 'sentiment' } as never] }))).rejects.toThrow(
    /^invalid airetry input: checks\[0\]\.kind: /,
  );
  await expect(grove.start('airetry', colorInput({ checks: [{ kind: 'regex', pattern: '([a-z' }] }))).rejects.toThrow(
    /^invalid airetry input: checks\[0\]\.pattern: not a valid regular expression/,
  );
  await expect(grove.start('airetry', colorInput({ config: { scoring: 'random' as never } }))).rejects.toThrow(/config\.scoring/);
});

test('a worker that cannot see the message store recovers from the run history and the run still succeeds', async () => {
  const { MemoryMessageStore } = await import('../../activities/store/memory-message-store');
  /** A store on "another host": it never has what an earlier activity wrote. */
  class AmnesicStore extends MemoryMessageStore {
    override async get() {
      return undefined;
    }
  }
  const taskQueue = uniqueTaskQueue('store-miss');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), store: new AmnesicStore() });
  const { result, history } = await worker.runUntil(async () => {
    const handle = await groveClient(suite.env, taskQueue).start('airetry', colorInput());
    return { result: await handle.result(), history: await handle.fetchHistory() };
  });
  expect(result.output).toBe('yellow');
  // Each activity found what it needed in the run's history: none failed, nothing was resent.
  expect((history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes)).toEqual([]);
});
