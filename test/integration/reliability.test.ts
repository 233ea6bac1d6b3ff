import { Client, Connection } from '@temporalio/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroveClient } from '../../client/grove-client';
import { startDevServer, type DevServer } from '../../client/temporal-server/dev-server';
import { freePort } from '../../client/temporal-server/ports';
import { startModelServer, type ModelServer } from '../../model-server';
import { startWorkerProcess, until, type WorkerProcess } from '../../workers/worker-process';
import { quickstartInput } from '../support/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Everything at once, as on a bad day in production: a provider failing every fifth request, a
 * worker SIGKILLed mid-run, and the Temporal server itself restarted with runs in flight (its
 * own dev server, on a database file so the restart keeps its state). Every run must end as it
 * does on a quiet day, and the only calls paid twice are ones that were in flight at a kill.
 */
let dir: string;
let port: number;
let server: DevServer;
let model: ModelServer;
let bundlePath: string;
const workers: WorkerProcess[] = [];

const fast = { initialRetryMs: 100, maxRetryIntervalMs: 500, heartbeatTimeoutMs: 2000 };
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
  [server, model] = await Promise.all([startServer(), startModelServer()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await model?.close();
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

test('provider faults, a killed worker and a Temporal restart with runs in flight: every run ends as on a quiet day', async () => {
  // The quiet day: the same inputs on a worker in this process, nothing going wrong.
  const env = await openTestEnv();
  const refQueue = uniqueTaskQueue('quiet');
  const refWorker = await testWorker(env, { taskQueue: refQueue, llm: testLlmConfig(model.baseURL) });
  const reference = await refWorker.runUntil(() =>
    Promise.all(inputs.map((r) => new GroveClient(env.client, refQueue).run(r.kind, r.input as never))),
  );
  await env.close();

  const taskQueue = uniqueTaskQueue('bad-day');
  const processEnv = {
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_SEND_CALL_KEY: '1',
    GROVE_STORE_URL: join(dir, 'store'),
    GROVE_WORKFLOW_BUNDLE: bundlePath,
    GROVE_WORKER_MODULE: 'examples/worker-module.ts',
  };
  const spawn = () => {
    const w = startWorkerProcess(processEnv);
    workers.push(w);
    return w;
  };
  model.addFault({ match: { callKeyPrefix: `${taskQueue}-`, every: 5 }, action: { kind: 'status', status: 503 }, times: 0 });
  model.addFault({ match: { callKeyPrefix: `${taskQueue}-` }, action: { kind: 'latency', ms: 60 }, times: 0 });
  const mine = () => model.stats().requests.filter((r) => r.callKey?.startsWith(`${taskQueue}-`));
  const completed = () => mine().filter((r) => r.outcome === 'completed').length;
  const repeatedBefore = model.stats().callKeys.repeatedAfterCompletion;

  const [a, b] = [spawn(), spawn()];
  await Promise.all([a.ready, b.ready]);
  const client = await connect();
  for (const r of inputs) await new GroveClient(client, taskQueue).start(r.kind, r.input as never, { workflowId: `${taskQueue}-${r.name}` });
  await client.connection.close();

  let inFlightAtKills = 0;
  await until(() => completed() >= 20, 60_000, 'the runs to get going');
  inFlightAtKills += model.stats().total.inFlight;
  await a.kill('SIGKILL');
  spawn();

  await until(() => completed() >= 45, 60_000, 'more progress');
  inFlightAtKills += model.stats().total.inFlight;
  await server.stop();
  server = await startServer();

  const results = [];
  for (const r of inputs) results.push(await resultOf(`${taskQueue}-${r.name}`));
  expect(results.map((r) => ({ tree: r.tree, answer: r.messages ?? r.output }))).toEqual(
    reference.map((r) => ({ tree: r.tree, answer: (r as { messages?: unknown }).messages ?? (r as { output?: unknown }).output })),
  );
  expect(mine().some((r) => r.status === 503)).toBe(true);
  expect(model.stats().callKeys.repeatedAfterCompletion - repeatedBefore).toBeLessThanOrEqual(inFlightAtKills);
}, 240_000);
