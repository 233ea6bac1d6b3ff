import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { freePort } from '../../client/temporal-server/ports';
import { startModelServer } from '../../model-server';
import { openTestEnv, groveClient, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';

/**
 * `llm.retryWindowMs` bounds every attempt of one call together: against a model endpoint that
 * is down, a call with a 6 s window has failed 6 s after it was scheduled — not after the
 * 10-minute start-to-close timeout — and the run says which bound ended it and the last error.
 */
let env: TestEnv;
let deadURL: string;
beforeAll(async () => {
  env = await openTestEnv();
  deadURL = `http://127.0.0.1:${await freePort()}/v1`; // nothing listens there: every attempt is refused
});
afterAll(() => env?.close());

const WINDOW_MS = 6_000;
const MAX_RETRY_INTERVAL_MS = 1_000;
/** How late Temporal may fire the window's timer (its timer queue, a busy machine). */
const TIMER_SLACK_MS = 2_000;
/** From the timeout to the failed run: one workflow task on a worker of a busy machine. */
const RUN_SLACK_MS = 10_000;

test('a call retries against a dead endpoint for its retry window, then the run fails naming the window and the last error', async () => {
  const taskQueue = uniqueTaskQueue('window');
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(deadURL) });
  const llm = { retryWindowMs: WINDOW_MS, initialRetryMs: 200, maxRetryIntervalMs: MAX_RETRY_INTERVAL_MS };
  const { handle, error } = await worker.runUntil(async () => {
    const handle = await groveClient(env, taskQueue).start('generate', { prompt: 'Say hi!', model: 'echo', llm });
    return { handle, error: await handle.result().then(() => undefined, (err: unknown) => err) };
  });
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const failure = (error as WorkflowFailedError).cause as Error & { type?: string };
  expect(failure.type).toBe('GroveNetworkError');
  expect(failure.message).toMatch(
    new RegExp(
      `^model call \\(llmChat\\) gave up: its retry window closed \\(llm\\.retryWindowMs = 6,000 ms: every attempt and wait of one call together\\); ` +
        `last error: GroveNetworkError: cannot reach the model endpoint at ${deadURL.replace(/[.]/g, '\\.')} \\(.*ECONNREFUSED.*\\)`,
    ),
  );

  const t = await timeline(handle);
  process.stderr.write(
    `retry window ${WINDOW_MS} ms: call failed ${t.callMs} ms after it was scheduled, after ${t.attempts} attempts; the run failed ${t.runMs} ms after it started\n`,
  );
  // Temporal makes no attempt that would begin after the window: the call fails when its next
  // backoff no longer fits (within one retry interval of the window's end), or when the window closes.
  expect(t.callMs).toBeGreaterThan(WINDOW_MS - MAX_RETRY_INTERVAL_MS);
  expect(t.callMs).toBeLessThanOrEqual(WINDOW_MS + TIMER_SLACK_MS);
  expect(t.runMs).toBeLessThanOrEqual(WINDOW_MS + RUN_SLACK_MS);
  expect(t.attempts).toBeGreaterThanOrEqual(4); // 200, 400, 800, 1000… ms apart: it did retry within the window
});

test('one attempt cannot outlive the window: a model that never answers is cut off when the window closes', async () => {
  const model = await startModelServer();
  model.addFault({ action: { kind: 'hang' }, times: 0 });
  const taskQueue = uniqueTaskQueue('window-attempt');
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL) });
  try {
    const { handle, error } = await worker.runUntil(async () => {
      const handle = await groveClient(env, taskQueue).start('generate', { prompt: 'hi', model: 'echo', llm: { retryWindowMs: 3_000, startToCloseTimeoutMs: 600_000 } });
      return { handle, error: await handle.result().then(() => undefined, (err: unknown) => err) };
    });
    const scheduled = (await handle.fetchHistory()).events!.find((e) => e.activityTaskScheduledEventAttributes)!.activityTaskScheduledEventAttributes!;
    expect([seconds(scheduled.scheduleToCloseTimeout), seconds(scheduled.startToCloseTimeout)]).toEqual([3, 3]);
    expect((error as WorkflowFailedError).cause).toMatchObject({
      type: 'GroveTimeout',
      message:
        'model call (llmChat) gave up: its retry window closed (llm.retryWindowMs = 3,000 ms: every attempt and wait of one call together); last error: none (an attempt was still running when the window closed)',
    });
    const t = await timeline(handle);
    expect(t.callMs).toBeLessThanOrEqual(3_000 + TIMER_SLACK_MS);
  } finally {
    await model.close();
  }
});

test('a call slower than its heartbeat timeout is kept alive by heartbeats, not retried beside itself: paid once', async () => {
  const model = await startModelServer();
  model.addFault({ action: { kind: 'latency', ms: 3_000 }, times: 0 });
  const taskQueue = uniqueTaskQueue('heartbeat');
  // The workers' default heartbeat interval (2 s) is longer than this run's heartbeat timeout (1 s).
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL, { heartbeatIntervalMs: 2_000 }) });
  try {
    const result = await worker.runUntil(() => groveClient(env, taskQueue).run('generate', { prompt: 'slow', model: 'echo', llm: { heartbeatTimeoutMs: 1_000 } }));
    expect(result.output).toBe('Echo: slow');
    expect(model.stats().total).toMatchObject({ received: 1, completed: 1 });
  } finally {
    await model.close();
  }
});

function seconds(d: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(d?.seconds ?? 0) + (d?.nanos ?? 0) / 1e9;
}

/** From the run's own history: when its call was scheduled and timed out, its attempts, and how long the run took. */
async function timeline(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  type EventTime = NonNullable<(typeof events)[number]['eventTime']>;
  const ms = (t: EventTime | null | undefined) => Number(t!.seconds) * 1000 + Math.floor((t!.nanos ?? 0) / 1e6);
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes)!;
  const started = events.find((e) => e.activityTaskStartedEventAttributes);
  const ended = events.find((e) => e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes)!;
  return {
    callMs: ms(ended.eventTime) - ms(scheduled.eventTime),
    runMs: ms(events[events.length - 1].eventTime) - ms(events[0].eventTime),
    attempts: started?.activityTaskStartedEventAttributes?.attempt ?? 0,
  };
}
