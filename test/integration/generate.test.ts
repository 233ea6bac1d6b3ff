import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { describeFailure } from '../../client/cli/describe-failure';
import { integrationSuite } from '../support/integration-suite';
import { groveClient, testLlmConfig, uniqueTaskQueue } from '../support/temporal-env';

const suite = integrationSuite('generate', { apiKeys: ['test-key'] });
const withWorker = suite.withWorker;
beforeEach(() => suite.model.reset());

const fastRetries = { initialRetryMs: 100, maxRetryIntervalMs: 200, maxAttempts: 3 };

test('generate runs one model call through the openai SDK and returns the answer', async () => {
  const result = await withWorker((tq) => groveClient(suite.env, tq).run('generate', { prompt: 'Say hi!', model: 'echo' }));
  expect(result.output).toBe('Echo: Say hi!');
  expect(result.conversation.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  expect(result.conversation[0].content).toBe('Act as a helpful AI assistant');
  expect(result.usage.totalTokens).toBeGreaterThan(0);
  expect(suite.model.stats().byModel.echo.completed).toBe(1);

  const description = await suite.env.client.workflow.getHandle(result.workflowId).describe();
  expect(description.searchAttributes.GroveStatus).toEqual(['succeeded']);
  expect(description.searchAttributes.GroveKind).toEqual(['generate']);
});

test('a 429 with Retry-After is retried after that delay and the run succeeds', async () => {
  suite.model.addFault({ match: { model: 'echo' }, action: { kind: 'status', status: 429, retryAfterSeconds: 1 } });
  const result = await withWorker(async (tq) => {
    const handle = await groveClient(suite.env, tq).start('generate', { prompt: 'again', model: 'echo', llm: { ...fastRetries, initialRetryMs: 50, maxRetryIntervalMs: 5_000 } });
    return { ...(await handle.result()), history: await handle.fetchHistory() };
  });
  expect(result.output).toBe('Echo: again');
  const stats = suite.model.stats().byModel.echo;
  expect(stats).toMatchObject({ received: 2, failed: 1, completed: 1 });
  // The retry waited for Retry-After (1 s), not the 50 ms backoff: the activity's start and
  // completion are at least a second apart in workflow history.
  expect(callMs(result.history)).toBeGreaterThanOrEqual(950);
});

test("a Retry-After longer than the run's llm.maxRetryIntervalMs waits only that long", async () => {
  suite.model.addFault({ match: { model: 'echo' }, action: { kind: 'status', status: 429, retryAfterSeconds: 3_600 } });
  const result = await withWorker(async (tq) => {
    const handle = await groveClient(suite.env, tq).start('generate', { prompt: 'capped', model: 'echo', llm: { ...fastRetries, maxRetryIntervalMs: 300 } });
    return { ...(await handle.result()), history: await handle.fetchHistory() };
  });
  expect(result.output).toBe('Echo: capped');
  expect(suite.model.stats().byModel.echo).toMatchObject({ received: 2, failed: 1, completed: 1 });
  const waited = callMs(result.history);
  expect(waited).toBeGreaterThanOrEqual(250);
  expect(waited).toBeLessThan(30_000); // the hour the provider asked for was not taken
});

/** Milliseconds from the first activity's scheduling to its completion, from workflow history. */
function callMs(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>): number {
  const events = history.events ?? [];
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes)!;
  const completed = events.find((e) => e.activityTaskCompletedEventAttributes)!;
  type EventTime = NonNullable<typeof scheduled.eventTime>;
  const millis = (t: EventTime | null | undefined) => Number(t!.seconds) * 1000 + Math.floor((t!.nanos ?? 0) / 1e6);
  return millis(completed.eventTime) - millis(scheduled.eventTime);
}

test('a 500 is retried', async () => {
  suite.model.addFault({ match: { model: 'echo' }, action: { kind: 'status', status: 500 }, times: 2 });
  const result = await withWorker((tq) => groveClient(suite.env, tq).run('generate', { prompt: 'flaky', model: 'echo', llm: fastRetries }));
  expect(result.output).toBe('Echo: flaky');
  expect(suite.model.stats().byModel.echo).toMatchObject({ received: 3, failed: 2, completed: 1 });
});

async function expectFailure(run: Promise<unknown>): Promise<{ message: string; type?: string }> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const cause = (err as WorkflowFailedError).cause as { type?: string; message: string };
  return { message: describeFailure(err), type: cause.type };
}

test('a bad API key fails fast, once, with a message that says what to fix', async () => {
  const failure = await withWorker(
    (tq) => expectFailure(groveClient(suite.env, tq).run('generate', { prompt: 'hi', model: 'echo' })),
    testLlmConfig(suite.model.baseURL, { apiKey: 'wrong-key' }),
  );
  expect(failure.type).toBe('GroveAuthFailed');
  expect(failure.message).toMatch(/rejected the API key \(401: .*\): set OPENAI_API_KEY/);
  expect(suite.model.stats().total.received).toBe(1);
});

test('an unknown model fails fast naming the model and the endpoint', async () => {
  const failure = await withWorker((tq) => expectFailure(groveClient(suite.env, tq).run('generate', { prompt: 'hi', model: 'no-such-model' })));
  expect(failure.type).toBe('GroveModelNotFound');
  expect(failure.message).toContain(`model "no-such-model" was not found at ${suite.model.baseURL}`);
  expect(suite.model.stats().total.received).toBe(1);
});

test('an unreachable OPENAI_BASE_URL fails after the retry budget with a clear error', async () => {
  const failure = await withWorker(
    (tq) => expectFailure(groveClient(suite.env, tq).run('generate', { prompt: 'hi', llm: { ...fastRetries, maxAttempts: 2 } })),
    testLlmConfig('http://127.0.0.1:9/v1'),
  );
  expect(failure.type).toBe('GroveNetworkError');
  expect(failure.message).toMatch(
    /^model call \(llmChat\) gave up: it used all 2 attempts it may make \(llm\.maxAttempts\); last error: GroveNetworkError: cannot reach the model endpoint at http:\/\/127\.0\.0\.1:9\/v1 .*check OPENAI_BASE_URL/,
  );
});

test('invalid input is rejected before a workflow starts, naming the field', async () => {
  const taskQueue = uniqueTaskQueue('generate-invalid');
  const grove = groveClient(suite.env, taskQueue);
  await expect(grove.start('generate', { prompt: 'hi', apiKwargs: { temperature: 7 } }, { workflowId: `never-${taskQueue}` })).rejects.toThrow(
    /^invalid generate input: apiKwargs\.temperature: /,
  );
  await expect(grove.start('generate', {} as never)).rejects.toThrow(/prompt.*exactly one of `prompt` or `messages`/);
  await expect(suite.env.client.workflow.getHandle(`never-${taskQueue}`).describe()).rejects.toThrow(/not found/i);
});
