import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInput } from '../../core/agents/agent-options';
import { startWorkerProcess, until, type WorkerProcess } from '../../workers/worker-process';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { freshDatabase } from '../support/postgres';
import { groveClient, uniqueTaskQueue } from '../support/temporal-env';
import { colorGameInput } from '../support/inputs';

/**
 * Workers as separate processes, the way operators run them: two "hosts" on one task queue,
 * provider faults that send retries to whichever worker polls first, kills, wiped disks. Every
 * run must end exactly as the same run does uninterrupted.
 */
const suite = integrationSuite('shared-store');
const NOT_SHARED = /lacked \d+ entr(?:y|ies) that earlier activities of workflow .* had stored; they were recovered from the run's history/;

// A killed worker's calls are retried once their heartbeat is missed: 5 s, long enough that a busy
// machine's slow heartbeats do not time out live calls too.
const fast = { initialRetryMs: 100, maxRetryIntervalMs: 400, heartbeatTimeoutMs: 5000 };
const agentInput = (i: number): AgentInput => quickstartInput({ model: 'multiplier?p=0.2&guess=0.3', seed: i, llm: fast });
const airetryInput = (i: number) => colorGameInput({ seed: i, llm: fast });

type Outcome = { tree: unknown; answer: unknown };
const reference = new Map<string, Outcome>();
const dirs: string[] = [];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  // The uninterrupted answers, from a worker in this process with nothing going wrong.
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const a = await grove.run('agent', agentInput(i));
        reference.set(`agent-${i}`, { tree: a.tree, answer: a.messages });
        const r = await grove.run('airetry', airetryInput(i));
        reference.set(`airetry-${i}`, { tree: r.tree, answer: r.output });
      }),
    );
  });
}, 120_000);

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.kill('SIGKILL')));
  suite.model.clearFaults();
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'grove-host-'));
  dirs.push(dir);
  return dir;
}

function worker(taskQueue: string, env: Record<string, string>): WorkerProcess {
  const w = startWorkerProcess({
    TEMPORAL_ADDRESS: suite.env.address,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: suite.model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_SEND_CALL_KEY: '1',
    GROVE_WORKFLOW_BUNDLE: suite.env.bundlePath,
    GROVE_WORKER_MODULE: 'examples/worker-module.ts',
    ...env,
  });
  workers.push(w);
  return w;
}

/** Starts `count` agent and `count` airetry runs; resolves with each run's workflow id. */
async function startRuns(taskQueue: string, count: number) {
  const grove = groveClient(suite.env, taskQueue);
  const handles = [];
  for (let i = 0; i < count; i++) {
    handles.push({ name: `agent-${i}`, handle: await grove.start('agent', agentInput(i), { workflowId: `${taskQueue}-agent-${i}` }) });
    handles.push({ name: `airetry-${i}`, handle: await grove.start('airetry', airetryInput(i), { workflowId: `${taskQueue}-airetry-${i}` }) });
  }
  return handles;
}

/** Waits for every run and checks each ended as its uninterrupted reference. */
async function expectSameAsReference(handles: Awaited<ReturnType<typeof startRuns>>): Promise<void> {
  for (const { name, handle } of handles) {
    const result = (await handle.result()) as { tree: unknown; messages?: unknown; output?: unknown };
    const expected = reference.get(name)!;
    expect({ name, tree: result.tree, answer: result.messages ?? result.output }).toEqual({ name, ...expected });
  }
}

/**
 * `finished`, or — past `ms` — a failure that says where each run stands and what the worker
 * printed, so a run that stalls on a busy machine is diagnosed rather than cut off by jest.
 */
async function finishesWithin(ms: number, finished: Promise<void>, handles: Awaited<ReturnType<typeof startRuns>>, w: WorkerProcess): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void Promise.all(handles.map(async ({ name, handle }) => `${name}: ${(await handle.describe()).status.name}`)).then((states) =>
        reject(new Error(`the runs did not finish within ${ms / 1000} s: ${states.join(', ')}; the replacement worker printed:\n${w.output().slice(-4000)}`)),
      );
    }, ms);
  });
  try {
    await Promise.race([finished, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Provider faults on this task queue's runs: every 4th model request fails with a 503, so its retry may land on any worker. */
function providerFaults(taskQueue: string): void {
  suite.model.addFault({ match: { callKeyPrefix: `${taskQueue}-`, every: 4 }, action: { kind: 'status', status: 503 }, times: 0 });
}

/** The worker identities that ran activities of these runs. */
async function activityWorkers(handles: Awaited<ReturnType<typeof startRuns>>): Promise<Set<string>> {
  const identities = new Set<string>();
  for (const { handle } of handles) {
    for (const e of (await handle.fetchHistory()).events ?? []) {
      const identity = e.activityTaskStartedEventAttributes?.identity;
      if (identity) identities.add(identity);
    }
  }
  return identities;
}

test('two hosts with their own local folders share PostgreSQL: under provider faults every run ends as uninterrupted', async () => {
  const taskQueue = uniqueTaskQueue('two-hosts');
  const url = await freshDatabase();
  providerFaults(taskQueue);
  const hosts = [worker(taskQueue, { GROVE_STORE_URL: url, GROVE_STORE_CACHE_DIR: tempDir() }), worker(taskQueue, { GROVE_STORE_URL: url, GROVE_STORE_CACHE_DIR: tempDir() })];
  await Promise.all(hosts.map((h) => h.ready));
  const handles = await startRuns(taskQueue, 10);
  await expectSameAsReference(handles);
  expect((await activityWorkers(handles)).size).toBe(2);
  expect(suite.model.stats().requests.some((r) => r.callKey?.startsWith(`${taskQueue}-`) && r.status === 503)).toBe(true);
  // A shared store never misses, so nothing was recovered from history.
  for (const h of hosts) expect(h.output()).not.toMatch(NOT_SHARED);
}, 120_000);

test.each([
  ['PostgreSQL, its local cache wiped', async () => ({ GROVE_STORE_URL: await freshDatabase(), GROVE_STORE_CACHE_DIR: tempDir() }), 'GROVE_STORE_CACHE_DIR'],
  ['a folder, wiped', async () => ({ GROVE_STORE_URL: tempDir() }), 'GROVE_STORE_URL'],
] as const)('a worker killed mid-run on %s: its replacement finishes every run as uninterrupted', async (_name, storeEnv, wiped) => {
  const taskQueue = uniqueTaskQueue('wiped');
  const env = await storeEnv();
  suite.model.addFault({ match: { callKeyPrefix: `${taskQueue}-` }, action: { kind: 'latency', ms: 100 }, times: 0 });
  const first = worker(taskQueue, env);
  await first.ready;
  const handles = await startRuns(taskQueue, 5);
  const completed = () => suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${taskQueue}-`) && r.outcome === 'completed').length;
  await until(() => completed() >= 15, 60_000, 'some model calls to finish');
  await first.kill('SIGKILL');
  rmSync((env as Record<string, string>)[wiped], { recursive: true, force: true });

  const replacement = worker(taskQueue, env);
  await finishesWithin(200_000, expectSameAsReference(handles), handles, replacement);
}, 300_000);

test('two hosts with unshared folders: the runs still complete (resending from history) and the worker warns once', async () => {
  const taskQueue = uniqueTaskQueue('unshared');
  providerFaults(taskQueue);
  // Runs start on the first host; halfway a second host joins and the first leaves (a rolling
  // deploy): the second must carry on with what only the first one's folder holds.
  const first = worker(taskQueue, { GROVE_STORE_URL: tempDir() });
  await first.ready;
  const handles = await startRuns(taskQueue, 5);
  const completed = () => suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${taskQueue}-`) && r.outcome === 'completed').length;
  await until(() => completed() >= 20, 60_000, 'some model calls to finish');
  const second = worker(taskQueue, { GROVE_STORE_URL: tempDir() });
  await second.ready;
  await first.kill('SIGTERM');
  await expectSameAsReference(handles);
  expect(second.output().match(new RegExp(NOT_SHARED, 'g'))).toHaveLength(1);
  expect(second.output()).toMatch(/their stores are not shared: give every worker one store \(GROVE_STORE_URL=postgres/);
}, 120_000);
