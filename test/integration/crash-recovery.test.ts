import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer, type ModelServer } from '../../model-server';
import { groveClient, openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';
import { startWorkerProcess, until } from '../../workers/worker-process';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';

let env: TestEnv;
let model: ModelServer;
let storeDir: string;

beforeAll(async () => {
  env = await openTestEnv();
  model = await startModelServer();
  storeDir = mkdtempSync(join(tmpdir(), 'grove-store-'));
});
const afterCleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(afterCleanup.splice(0).map((f) => f()));
});
afterAll(async () => {
  await model?.close();
  await env?.close();
  rmSync(storeDir, { recursive: true, force: true });
});

const input = colorGameInput({ seed: 11, llm: { heartbeatTimeoutMs: 2000 } });

/** Environment of a worker process on `taskQueue` against this file's servers (the store folder is shared). */
const workerEnvFor = (taskQueue: string) => ({
  TEMPORAL_ADDRESS: env.address,
  GROVE_TASK_QUEUE: taskQueue,
  OPENAI_BASE_URL: model.baseURL,
  OPENAI_API_KEY: 'test-key',
  GROVE_SEND_CALL_KEY: '1',
  GROVE_STORE_DIR: storeDir,
  GROVE_WORKFLOW_BUNDLE: env.bundlePath,
  GROVE_WORKER_MODULE: 'examples/worker-module.ts',
});

const requestsOf = (workflowId: string) => model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`));

test('a worker SIGKILLed mid-retry is replaced; the run ends with the same tree and no completed call is paid twice', async () => {
  // The reference: the same run, uninterrupted.
  const refQueue = uniqueTaskQueue('crash-ref');
  const refWorker = await testWorker(env, { taskQueue: refQueue, llm: testLlmConfig(model.baseURL) });
  const reference = await refWorker.runUntil(groveClient(env, refQueue).run('airetry', input, { workflowId: `${refQueue}-run` }));
  expect(reference.success).toBe(true);
  const referenceCalls = requestsOf(reference.workflowId).filter((r) => r.outcome === 'completed').length;
  expect(referenceCalls).toBeGreaterThanOrEqual(3);

  // The crash run: its first retry request (the first one carrying feedback) hangs in flight.
  const taskQueue = uniqueTaskQueue('crash');
  const workflowId = `${taskQueue}-run`;
  model.addFault({ match: { callKeyPrefix: `${workflowId}/`, contains: '### Feedback from Evaluator' }, action: { kind: 'hang' } });
  const workerEnv = workerEnvFor(taskQueue);
  const first = startWorkerProcess(workerEnv);
  afterCleanup.push(() => first.kill('SIGKILL'));
  await first.ready;
  const handle = await groveClient(env, taskQueue).start('airetry', input, { workflowId });
  await until(() => model.stats().total.inFlight > 0, 30_000, 'the hanging model call');
  const completedBeforeKill = requestsOf(workflowId).filter((r) => r.outcome === 'completed').length;
  expect(completedBeforeKill).toBeGreaterThanOrEqual(1);

  await first.kill('SIGKILL');
  await until(() => requestsOf(workflowId).some((r) => r.outcome === 'aborted'), 10_000, 'the server to see the dead connection');

  const second = startWorkerProcess(workerEnv);
  afterCleanup.push(() => second.kill('SIGKILL'));
  try {
    const result = await handle.result();
    expect(result.tree).toEqual(reference.tree);
    expect(result.output).toBe(reference.output);

    const log = requestsOf(workflowId);
    expect(log.filter((r) => r.outcome === 'completed')).toHaveLength(referenceCalls);
    expect(log.filter((r) => r.outcome === 'aborted')).toHaveLength(1);
    // Every completed call key completed once: nothing that finished before the crash was re-sent.
    const keys = log.filter((r) => r.outcome === 'completed').map((r) => r.callKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(model.stats().callKeys.repeatedAfterCompletion).toBe(0);
  } finally {
    await first.kill('SIGKILL');
    await second?.kill('SIGTERM');
  }
}, 90_000);

test.each([
  ['LLM evaluator; tools as local activities', {}],
  ['custom evaluator and tools as local activities', { evaluator: { name: 'multiplication-checker' } }],
] as const)('an agent whose worker is SIGKILLed mid-search finishes on a new worker with the same result, paying no completed call twice (%s)', async (_name, over) => {
  const spec = quickstartInput({ model: 'multiplier?p=0.2&guess=0.3', llm: { heartbeatTimeoutMs: 2000 }, ...over });
  const refQueue = uniqueTaskQueue('agent-crash-ref');
  const refWorker = await testWorker(env, { taskQueue: refQueue, llm: testLlmConfig(model.baseURL) });
  const reference = await refWorker.runUntil(groveClient(env, refQueue).run('agent', spec, { workflowId: `${refQueue}-run` }));
  expect(reference.isSolution).toBe(true);
  const referenceCalls = requestsOf(reference.workflowId).filter((r) => r.outcome === 'completed').length;

  const taskQueue = uniqueTaskQueue('agent-crash');
  const workflowId = `${taskQueue}-run`;
  // The second expansion's candidate call (its conversation holds the first tool result) hangs.
  model.addFault({ match: { callKeyPrefix: `${workflowId}/`, model: 'multiplier', contains: '76382.76173' }, action: { kind: 'hang' } });
  const workerEnv = workerEnvFor(taskQueue);
  const first = startWorkerProcess(workerEnv);
  let second: ReturnType<typeof startWorkerProcess> | undefined;
  try {
    await first.ready;
    const handle = await groveClient(env, taskQueue).start('agent', spec, { workflowId });
    await until(() => model.stats().total.inFlight > 0, 30_000, 'the hanging model call');
    expect(requestsOf(workflowId).filter((r) => r.outcome === 'completed').length).toBeGreaterThanOrEqual(1);
    await first.kill('SIGKILL');

    second = startWorkerProcess(workerEnv);
    const result = await handle.result();
    expect(result.tree).toEqual(reference.tree);
    expect(result.messages).toEqual(reference.messages);
    const log = requestsOf(workflowId);
    expect(log.filter((r) => r.outcome === 'completed')).toHaveLength(referenceCalls);
    expect(log.filter((r) => r.outcome === 'aborted')).toHaveLength(1);
    expect(model.stats().callKeys.repeatedAfterCompletion).toBe(0);
  } finally {
    await first.kill('SIGKILL');
    await second?.kill('SIGTERM');
  }
}, 90_000);

/**
 * The window the call records exist for: the model answered, the worker recorded the answer, and
 * died before Temporal heard of it. The worker is SIGKILLed exactly there (its store holds the
 * activity right after recording); the retry on the next worker must return the recorded answer.
 * The control run keeps no records and pays the same call twice — so the test does hit the window.
 */
test.each([
  ['with call records, the retry reuses the answer', '0', 0],
  ['without them (control), the same call is paid twice', '1', 1],
] as const)('killed between recording an answer and reporting it: %s', async (_name, forget, repeated) => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-window-'));
  const taskQueue = uniqueTaskQueue('window');
  const workflowId = `${taskQueue}-run`;
  const marker = join(dir, 'held');
  const moduleEnv = {
    ...workerEnvFor(taskQueue),
    GROVE_WORKER_MODULE: 'test/fixtures/worker-modules/hold-after-record.ts',
    GROVE_TEST_STORE_DIR: join(dir, 'store'),
    GROVE_TEST_FORGET_CALLS: forget,
  };
  const first = startWorkerProcess({ ...moduleEnv, GROVE_TEST_HOLD_MARKER: marker });
  let second: ReturnType<typeof startWorkerProcess> | undefined;
  try {
    await first.ready;
    const before = model.stats().callKeys.repeatedAfterCompletion;
    const handle = await groveClient(env, taskQueue).start('airetry', input, { workflowId });
    await until(() => existsSync(marker), 30_000, 'the first answer to be recorded');
    // Inside the window: the model completed the request, Temporal has not been told.
    expect(requestsOf(workflowId).filter((r) => r.outcome === 'completed')).toHaveLength(1);
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.some((e) => e.activityTaskCompletedEventAttributes)).toBe(false);
    await first.kill('SIGKILL');

    second = startWorkerProcess(moduleEnv);
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(model.stats().callKeys.repeatedAfterCompletion - before).toBe(repeated);
  } finally {
    await first.kill('SIGKILL');
    await second?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
