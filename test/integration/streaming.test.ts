import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import type { MessageStore } from '../../activities/store/message-store';
import type { RunEvent, TokenEvent } from '../../core/runs/run-events';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { colorGameInput } from '../support/inputs';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Model calls that stream, in durable runs on the real dev server against the scripted model
 * server over HTTP: a streamed run makes exactly the decisions and the history of one that is
 * not streamed; a reader of `GroveClient.events` sees a held call's text so far, then its
 * growth; a secret split across chunks never reaches a reader; servers that refuse or ignore
 * streaming fall back; a run cancelled mid-stream is cancelled, its call aborted at the server.
 */
const SECRET = 'tok-Z9y8X7w6V5u4T3s2';
process.env.GROVE_STREAM_TEST_TOKEN = SECRET; // a variable named like a token: the workers' redactor blanks its value
const suite = integrationSuite('streaming', { tokenDelayMs: 2 });
beforeEach(() => suite.model.reset());

/** A worker on its own task queue with a store of its own (streams included), running `fn`. */
async function withWorker<T>(fn: (taskQueue: string, store: MessageStore) => Promise<T>, llm: Parameters<typeof testLlmConfig>[1] = {}, workerOptions: Parameters<typeof testWorker>[1]['workerOptions'] = {}): Promise<T> {
  const taskQueue = uniqueTaskQueue('streaming');
  const store = new MemoryMessageStore();
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL, llm), store, workerOptions });
  return worker.runUntil(fn(taskQueue, store));
}

type Event = temporal.api.history.v1.IHistoryEvent;

/** Each model call of a run: its input and result payloads as recorded in history, in order. */
async function modelCalls(handle: WorkflowHandle, runId: string): Promise<Array<{ input: Buffer; result: Buffer }>> {
  const events: Event[] = (await suite.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? [];
  const scheduled = new Map(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'llmChat').map((e) => [String(e.eventId), e]));
  return events
    .filter((e) => e.activityTaskCompletedEventAttributes && scheduled.has(String(e.activityTaskCompletedEventAttributes.scheduledEventId)))
    .map((e) => ({
      input: Buffer.from(scheduled.get(String(e.activityTaskCompletedEventAttributes!.scheduledEventId))!.activityTaskScheduledEventAttributes!.input!.payloads![0]!.data!),
      result: Buffer.from(e.activityTaskCompletedEventAttributes!.result!.payloads![0]!.data!),
    }));
}

test.each([
  ['airetry, n = 2, feedback', 'airetry' as const, colorGameInput()],
  ['an MCTS search with tool calls and an LLM judge', 'agent' as const, quickstartInput({ budget: { maxCalls: 30 }, seed: 3 })],
])('%s: streamed and not, the same run — result, and every model call byte for byte in history', async (_name, kind, input) => {
  const workflowId = `streamed-same-${uniqueTaskQueue(kind)}`;
  const runs: Array<{ result: unknown; runId: string; handle: WorkflowHandle }> = [];
  for (const stream of [true, false]) {
    // The same workflow id (the first run has closed), so what the calls carry is comparable byte for byte.
    runs.push(
      await withWorker(async (taskQueue) => {
        const handle = await groveClient(suite.env, taskQueue).start(kind, input as never, { workflowId });
        const result = await handle.result();
        return { result, runId: (await handle.describe()).runId, handle };
      }, { stream }),
    );
  }
  const [streamed, whole] = runs;
  const stripped = (r: unknown) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'durationMs' || k === 'startedAt' || k === 'finishedAt' ? undefined : v)));
  expect(stripped(streamed!.result)).toEqual(stripped(whole!.result));
  const a = await modelCalls(streamed!.handle, streamed!.runId);
  const b = await modelCalls(whole!.handle, whole!.runId);
  expect(a.length).toBeGreaterThan(0);
  expect(a.map((c) => c.result.length)).toEqual(b.map((c) => c.result.length)); // history bytes per model call: equal
  expect(a.map((c) => c.result.toString('base64'))).toEqual(b.map((c) => c.result.toString('base64')));
  expect(a.map((c) => c.input.toString('base64'))).toEqual(b.map((c) => c.input.toString('base64')));
  // The first run's calls streamed (the model server answered them with server-sent chunks), the second's did not.
  const log = suite.model.stats().requests.filter((r) => r.outcome === 'completed');
  expect(log.filter((r) => r.streamed).length).toBeGreaterThanOrEqual(a.length);
  expect(log.filter((r) => !r.streamed).length).toBeGreaterThanOrEqual(b.length);
}, 180_000);

/** Reads a run's events until `stop` says so (or they end). */
async function readEvents(events: AsyncIterable<RunEvent>, stop: (e: RunEvent, all: RunEvent[]) => boolean): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const e of events) {
    all.push(e);
    if (stop(e, all)) break;
  }
  return all;
}

test('a reader that comes while a call is held mid-stream gets its text so far, then its growth, then the run’s end', async () => {
  const taskQueueEvents = await withWorker(async (taskQueue, store) => {
    suite.model.hold({ model: 'echo' }, { afterTokens: 3 });
    const grove = groveClient(suite.env, taskQueue);
    const handle = await grove.start('generate', { prompt: 'Tell me everything about streams, please.', model: 'echo' });
    await until(() => suite.model.stats().held.length === 1);
    const channel = store.tokenChannel!()!;
    await untilAsync(async () => (await channel.current(handle.workflowId))[0]?.text === 'Echo: Tell m'); // three tokens of four characters
    // A reader that comes now starts with the text so far (not the first chunk, not nothing)...
    const early = await firstToken(grove.events(handle.workflowId, { store, pollMs: 200 }));
    expect(early).toMatchObject({ text: 'Echo: Tell m', delta: 'Echo: Tell m', state: 'streaming', node: 0, summary: expect.stringMatching(/^generate: /) });
    // ...and one reading on sees the rest grow once the call goes on.
    const reading = readEvents(grove.events(handle.workflowId, { store, pollMs: 200 }), () => false);
    suite.model.release();
    const events = await reading;
    const result = (await handle.result()) as { output: string };
    return { events, result };
  });
  const { events, result } = taskQueueEvents;
  expect(events[0]).toMatchObject({ type: 'status', status: 'running', live: true });
  expect(events.at(-1)).toMatchObject({ type: 'status', status: 'succeeded', live: false });
  const tokens = events.filter((e): e is TokenEvent => e.type === 'token');
  expect(tokens[0]!.text).toBe('Echo: Tell m');
  // Growth: each event continues the one before it, and the deltas add up to the answer.
  for (let i = 1; i < tokens.length; i++) expect(tokens[i]!.text).toBe(tokens[i - 1]!.text + tokens[i]!.delta);
  expect(tokens.at(-1)).toMatchObject({ state: 'done', text: result.output });
  expect(tokens.map((t) => t.delta).join('')).toBe(result.output);
  expect(events.filter((e) => e.type === 'node').map((e) => (e as { id: number }).id)).toEqual([0, 1]);
}, 120_000);

async function firstToken(events: AsyncIterable<RunEvent>): Promise<TokenEvent> {
  const all = await readEvents(events, (e) => e.type === 'token');
  return all.at(-1) as TokenEvent;
}

test('a secret split across chunks never reaches a reader of the stream; the stored answer is redacted too', async () => {
  const { tokens, output } = await withWorker(async (taskQueue, store) => {
    const grove = groveClient(suite.env, taskQueue);
    const handle = await grove.start('generate', { prompt: `The deploy token is ${SECRET} and that is all.`, model: 'echo' });
    const events = await readEvents(grove.events(handle.workflowId, { store, pollMs: 200 }), () => false);
    return { tokens: events.filter((e): e is TokenEvent => e.type === 'token'), output: ((await handle.result()) as { output: string }).output };
  });
  expect(output).toBe('Echo: The deploy token is [redacted GROVE_STREAM_TEST_TOKEN] and that is all.');
  expect(tokens.length).toBeGreaterThan(1);
  const everything = tokens.map((t) => `${t.text}\n${t.delta}`).join('\n');
  for (let i = 0; i + 5 <= SECRET.length; i++) expect(everything).not.toContain(SECRET.slice(i, i + 5));
  expect(tokens.at(-1)!.text).toBe(output);
}, 120_000);

test.each([
  ['refuses', 'no-streaming', /^noStream: the server refused the request \(400: Streaming is not supported/],
  ['ignores', 'ignores-streaming', /^noStream: the server answered stream: true with a whole completion/],
])('a server that %s streaming: the run gets the same answer, once, and its call says why it was not streamed', async (_name, profile, note) => {
  const result = await withWorker(
    async (taskQueue) => {
      const handle = await groveClient(suite.env, taskQueue).start('generate', { prompt: 'Say hi!', model: 'echo' });
      return { output: ((await handle.result()) as { output: string }).output, calls: await modelCalls(handle, (await handle.describe()).runId) };
    },
    { baseURL: `${suite.model.url}/profile/${profile}/v1` },
  );
  expect(result.output).toBe('Echo: Say hi!');
  expect(JSON.parse(result.calls[0]!.result.toString()).compat).toEqual([expect.stringMatching(note)]);
  expect(suite.model.stats().total.completed).toBe(1);
}, 120_000);

test('a run cancelled while its call streams is cancelled: the call is aborted at the server, its stream ends failed, the worker goes on', async () => {
  await withWorker(async (taskQueue, store) => {
    suite.model.hold({ model: 'echo' }, { afterTokens: 2 });
    const grove = groveClient(suite.env, taskQueue);
    // A heartbeat timeout of a second: the call hears of the cancellation at its next heartbeat (as without streaming).
    const handle = await grove.start('generate', { prompt: 'A long answer that will not finish.', model: 'echo', llm: { heartbeatTimeoutMs: 1000 } });
    await until(() => suite.model.stats().held.length === 1);
    const reading = readEvents(grove.events(handle.workflowId, { store, pollMs: 200 }), () => false);
    await grove.cancel(handle.workflowId);
    const events = await reading;
    await until(() => suite.model.stats().total.aborted === 1);
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'cancelled', live: false });
    const tokens = events.filter((e): e is TokenEvent => e.type === 'token');
    expect(tokens.at(-1)).toMatchObject({ state: 'failed', text: 'Echo: A ' });
    expect(suite.model.release()).toEqual([]);
    // The worker is free: the next run streams and completes.
    const next = await grove.run('generate', { prompt: 'Still here?', model: 'echo' });
    expect(next.output).toBe('Echo: Still here?');
  });
}, 120_000);

test('a run that ends while a call still streams (Temporal timed the call out; its worker has not heard yet): a live reader’s last event for it is failed', async () => {
  // Heartbeats held back for 48 s (0.8 × a 60 s heartbeat timeout): the worker hears that Temporal
  // gave up on the call long after the run has ended, so the stream is still open when the run ends.
  await withWorker(
    async (taskQueue, store) => {
      suite.model.hold({ model: 'echo' }, { afterTokens: 2 });
      const grove = groveClient(suite.env, taskQueue);
      const handle = await grove.start('generate', { prompt: 'A long answer that will not finish.', model: 'echo', llm: { retryWindowMs: 3_000, heartbeatTimeoutMs: 60_000 } });
      await until(() => suite.model.stats().held.length === 1);
      const events = await readEvents(grove.events(handle.workflowId, { store, pollMs: 200 }), () => false);
      // The window: the run has ended while the worker still streams the call.
      const open = await store.tokenChannel!()!.current(handle.workflowId);
      suite.model.release();
      expect(open.map((t) => t.state)).toEqual(['streaming']);
      expect((await handle.describe()).status.name).toBe('FAILED');
      expect(events.at(-1)).toMatchObject({ type: 'status', status: 'failed', live: false });
      const tokens = events.filter((e): e is TokenEvent => e.type === 'token');
      expect(tokens.map((t) => t.state).slice(-2)).toEqual(['streaming', 'failed']);
      expect(tokens.at(-1)).toMatchObject({ text: 'Echo: A ', delta: '', restarted: false });
    },
    {},
    { maxHeartbeatThrottleInterval: 60_000 },
  );
}, 120_000);

async function untilAsync(predicate: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 3_000; i++) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out waiting');
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 3_000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!predicate()) throw new Error('timed out waiting');
}
