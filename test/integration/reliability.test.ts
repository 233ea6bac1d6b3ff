import { Client, Connection } from '@temporalio/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMessageStore } from '../../activities/store/file-message-store';
import { GroveClient } from '../../client/grove-client';
import { startDevServer, type DevServer } from '../../client/temporal-server/dev-server';
import { freePort } from '../../client/temporal-server/ports';
import { startModelServer, type ModelServer } from '../../model-server';
import { startWorkerProcess, until, type WorkerProcess } from '../../workers/worker-process';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Everything at once, as on a bad day in production: a provider failing every fifth request, a
 * worker SIGKILLed mid-run, and the Temporal server itself restarted with runs in flight (its
 * own dev server, on a database file so the restart keeps its state). Every run must end as it
 * does on a quiet day, and a model call is paid twice only where grove's guarantee says it may
 * be (docs/durability.md, "What is paid twice"): an answer the model had sent that its worker
 * had not recorded when it died, or a call open across the outage that Temporal gave up on.
 *
 * The windows are entered by construction, not by timing. Worker `a` talks to model server A,
 * workers `b` and `c` to model server B, so each server's log says whose calls it answered.
 * - The kill: A holds `a`'s next calls unanswered until `a` has recorded every answer A sent
 *   before (checked in the store), so `a`'s only open calls are the held ones; `a` is frozen
 *   (SIGSTOP), the held calls are released and answered, then `a` is killed (SIGKILL). Those
 *   calls are exactly the answered-but-unrecorded window: each must be paid again, once.
 * - The restart: B holds every call until the only activities running are the held calls and
 *   every answer B sent is recorded; the server stops and starts; then the held calls go on.
 *   They are the only calls open across the outage: each may be paid again (if Temporal gave up
 *   on its attempt), and nothing else may.
 */
let dir: string;
let port: number;
let server: DevServer;
let modelA: ModelServer;
let modelB: ModelServer;
let bundlePath: string;
const workers: WorkerProcess[] = [];

// Heartbeats every 2 s against a 10 s timeout: a loaded machine does not get a live attempt
// declared dead (that would be a paid-twice window of its own, outside the two guarded here).
const fast = { initialRetryMs: 100, maxRetryIntervalMs: 500, heartbeatTimeoutMs: 10_000 };
const inputs = [
  ...Array.from({ length: 5 }, (_, i) => ({ name: `agent-${i}`, kind: 'agent' as const, input: quickstartInput({ model: 'multiplier?p=0.2&guess=0.3', seed: i, llm: fast }) })),
  ...Array.from({ length: 5 }, (_, i) => ({ name: `airetry-${i}`, kind: 'airetry' as const, input: colorGameInput({ seed: i, llm: fast }) })),
];

const startServer = () => startDevServer({ port, uiPort: false, dbFile: join(dir, 'temporal.db') });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-reliability-'));
  const shared = await openTestEnv(); // the bundle, and the shared server for the quiet-day reference
  bundlePath = shared.bundlePath;
  await shared.close();
  port = await freePort();
  [server, modelA, modelB] = await Promise.all([startServer(), startModelServer(), startModelServer()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await Promise.all([modelA?.close(), modelB?.close()]);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  return new Client({ connection: await Connection.connect({ address: `127.0.0.1:${port}` }) });
}

/** A run's result, waiting through a server that is down for a while. */
async function resultOf(workflowId: string): Promise<{ tree: unknown; messages?: unknown; output?: unknown }> {
  for (;;) {
    try {
      const client = await connect();
      try {
        return await client.workflow.getHandle(workflowId).result();
      } finally {
        await client.connection.close();
      }
    } catch (err) {
      if (/WorkflowFailedError/.test((err as Error).name)) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

test('provider faults, a killed worker and a Temporal restart with runs in flight: every run ends as on a quiet day, and only calls open at a death are paid twice', async () => {
  // The quiet day: the same inputs on a worker in this process, nothing going wrong.
  const env = await openTestEnv();
  const refQueue = uniqueTaskQueue('quiet');
  const refWorker = await testWorker(env, { taskQueue: refQueue, llm: testLlmConfig(modelB.baseURL) });
  const reference = await refWorker.runUntil(() =>
    Promise.all(inputs.map((r) => new GroveClient(env.client, refQueue).run(r.kind, r.input as never))),
  );
  await env.close();

  const taskQueue = uniqueTaskQueue('bad-day');
  const mine = `${taskQueue}-`;
  const store = new FileMessageStore(join(dir, 'store'));
  const processEnv = (model: ModelServer) => ({
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_SEND_CALL_KEY: '1',
    GROVE_STORE_URL: join(dir, 'store'),
    GROVE_WORKFLOW_BUNDLE: bundlePath,
    GROVE_WORKER_MODULE: 'examples/worker-module.ts',
  });
  const spawn = (model: ModelServer) => {
    const w = startWorkerProcess(processEnv(model));
    workers.push(w);
    return w;
  };
  for (const model of [modelA, modelB]) {
    model.addFault({ match: { callKeyPrefix: mine, every: 5 }, action: { kind: 'status', status: 503 }, times: 0 });
    model.addFault({ match: { callKeyPrefix: mine }, action: { kind: 'latency', ms: 60 }, times: 0 });
  }
  const log = (model: ModelServer) => model.stats().requests.filter((r) => r.callKey?.startsWith(mine));
  const completedAt = (model: ModelServer) => log(model).filter((r) => r.outcome === 'completed').map((r) => r.callKey!);
  const recorded = async (key: string) => (await store.getCallResult(key)) !== undefined;
  /** The model's open calls are exactly the ones it holds: nothing in flight besides them, every answer it sent recorded. */
  const onlyHeldOpen = async (model: ModelServer) => {
    const { held, total } = model.stats();
    if (held.length === 0 || total.inFlight !== held.length) return false;
    for (const key of completedAt(model)) if (!(await recorded(key))) return false;
    return true;
  };
  const workflowIds = inputs.map((r) => `${taskQueue}-${r.name}`);
  /** Activities running on some worker now (pending, started), across the runs. */
  const runningActivities = async () => {
    const client = await connect();
    try {
      const descriptions = await Promise.all(workflowIds.map((id) => client.workflow.getHandle(id).describe()));
      return descriptions.reduce((n, d) => n + (d.raw.pendingActivities ?? []).filter((a) => Number(a.state) === 2).length, 0);
    } finally {
      await client.connection.close();
    }
  };

  const [a, b] = [spawn(modelA), spawn(modelB)];
  await Promise.all([a.ready, b.ready]);
  const client = await connect();
  for (const [i, r] of inputs.entries()) await new GroveClient(client, taskQueue).start(r.kind, r.input as never, { workflowId: workflowIds[i] });
  await client.connection.close();

  // The kill: a's open calls are exactly the calls A holds; A answers them while a is frozen.
  await until(() => completedAt(modelA).length + completedAt(modelB).length >= 20, 60_000, 'the runs to get going');
  modelA.hold({ callKeyPrefix: mine });
  await until(() => onlyHeldOpen(modelA), 60_000, "worker a's calls to be held, every earlier answer recorded");
  a.child.kill('SIGSTOP');
  modelA.clearFaults(); // no 503 for the released calls: each is answered
  const released = modelA.release();
  await until(() => modelA.stats().total.inFlight === 0, 30_000, "A to answer a's held calls");
  const answeredUnrecorded = new Set(log(modelA).filter((r) => released.includes(r.callKey!) && r.outcome === 'completed').map((r) => r.callKey!));
  for (const key of answeredUnrecorded) expect(await recorded(key)).toBe(false); // a is frozen: it cannot record them
  await a.kill('SIGKILL');
  spawn(modelB);

  // The restart: the only activities running across it are calls B holds.
  await until(() => completedAt(modelA).length + completedAt(modelB).length >= 45, 90_000, 'more progress after the kill');
  modelB.hold({ callKeyPrefix: mine });
  await until(async () => (await onlyHeldOpen(modelB)) && (await runningActivities()) === modelB.stats().held.length, 60_000, "the workers' calls to be held, nothing else running");
  await server.stop();
  server = await startServer();
  const openAcrossOutage = new Set(modelB.release());

  const results = [];
  for (const id of workflowIds) results.push(await resultOf(id));
  expect(results.map((r) => ({ tree: r.tree, answer: r.messages ?? r.output }))).toEqual(
    reference.map((r) => ({ tree: r.tree, answer: (r as { messages?: unknown }).messages ?? (r as { output?: unknown }).output })),
  );
  expect([...log(modelA), ...log(modelB)].some((r) => r.status === 503)).toBe(true);

  // Paid = answered (a completed response), wherever it went.
  const paid = new Map<string, number>();
  for (const key of [...completedAt(modelA), ...completedAt(modelB)]) paid.set(key, (paid.get(key) ?? 0) + 1);
  const allowed = (key: string) => 1 + (answeredUnrecorded.has(key) ? 1 : 0) + (openAcrossOutage.has(key) ? 1 : 0);
  expect([...paid].filter(([key, n]) => n > allowed(key))).toEqual([]); // nothing else was paid twice
  expect(answeredUnrecorded.size).toBeGreaterThanOrEqual(1); // the kill's window was entered…
  expect([...answeredUnrecorded].map((key) => [key, (paid.get(key) ?? 0) >= 2])).toEqual([...answeredUnrecorded].map((key) => [key, true])); // …and each of its calls paid again
  const repaidAcrossOutage = [...openAcrossOutage].filter((key) => (paid.get(key) ?? 0) > 1 + (answeredUnrecorded.has(key) ? 1 : 0));
  process.stderr.write(
    `reliability: ${paid.size} calls paid; kill: ${answeredUnrecorded.size} answered but unrecorded, each paid twice; ` +
      `restart: ${openAcrossOutage.size} open across the outage, ${repaidAcrossOutage.length} of them paid twice; ` +
      `nothing else paid twice (${[...paid.values()].filter((n) => n > 1).length} keys paid more than once in all)\n`,
  );
}, 300_000);
