import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groveFleetState } from '../../activities/grove-activities';
import { queueWorkers } from '../../temporal/fleet/queue-workers';
import { registryQueue } from '../../core/fleet/registry';
import { startWorkerProcess, until, type WorkerProcess } from '../../workers/worker-process';
import { fleetTools, type FleetTools } from '../fixtures/worker-modules/fleet-tools';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { ROOT, runCli } from '../support/run-cli';
import { groveClient, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Workers on one task queue whose tools agree, or say they do not — each a process of its own,
 * as on separate hosts, sharing one message store. Each run is bound to the registry of the
 * worker that starts it (or the one it pins), and its tools run only on workers with that
 * registry: the three cases of a fleet — the same registry everywhere, a user's worker with its
 * own `multiply` beside one with the example's, and a worker that lacks a tool.
 */
const suite = integrationSuite('fleet');
const dir = mkdtempSync(join(tmpdir(), 'grove-fleet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fingerprint = (which: FleetTools) => groveFleetState({ tools: fleetTools(which), evaluators: [] }).registry.fingerprint;

/** A grove worker process named `name` serving the `which` tools on `taskQueue`. */
function startWorker(taskQueue: string, name: string, which: FleetTools, opts: { toolsOnly?: boolean } = {}): WorkerProcess {
  return startWorkerProcess({
    TEMPORAL_ADDRESS: suite.env.address,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: suite.model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_MODEL: 'multiplier-judge',
    GROVE_SEND_CALL_KEY: '1',
    GROVE_STORE_DIR: join(dir, taskQueue, 'store'),
    GROVE_WORKFLOW_BUNDLE: suite.env.bundlePath,
    GROVE_WORKER_MODULE: 'test/fixtures/worker-modules/fleet-tools.ts',
    GROVE_TEST_FLEET_TOOLS: which,
    GROVE_TEST_FLEET_CALLS: join(dir, taskQueue, 'calls'),
    GROVE_WORKER_IDENTITY: name,
    GROVE_FLEET_WATCH_MS: '200',
    ...(opts.toolsOnly ? { GROVE_WORKER_WORKFLOWS: '0' } : {}),
  });
}

/** Whose `multiply` ran, one entry per run of it. */
const calls = (taskQueue: string): string[] => {
  const file = join(dir, taskQueue, 'calls');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
};
/** The fleet reports a worker printed. */
const reports = (worker: WorkerProcess): string[] => worker.output().split('\n').filter((l) => l.includes('grove: on task queue'));

const memoOf = async (taskQueue: string, workflowId: string) =>
  (await groveClient(suite.env, taskQueue).temporal.workflow.getHandle(workflowId).describe()).memo?.groveRegistry as
    | { bound: { queue: string; worker: string }[]; notes?: string[] }
    | undefined;

const pollers = async (queue: string) => (await queueWorkers(suite.env.client.workflowService, 'default', queue)).map((w) => w.worker).sort();

test('the same registry everywhere: no warning, and a run is handed from one worker to the other', async () => {
  const taskQueue = uniqueTaskQueue('fleet-same');
  const fp = fingerprint('example');
  const a = startWorker(taskQueue, 'worker-a', 'example');
  let b: WorkerProcess | undefined;
  try {
    await a.ready;
    // The model fails (503, retried) until worker A has handed over to worker B: the run cannot end on A alone.
    suite.model.addFault({ match: { model: 'multiplier', callKeyPrefix: `${taskQueue}-` }, action: { kind: 'status', status: 503 }, times: 0 });
    const grove = groveClient(suite.env, taskQueue);
    const handle = await grove.start('agent', quickstartInput({ algorithm: 'greedy', llm: { initialRetryMs: 200, maxRetryIntervalMs: 500 } }), { workflowId: `${taskQueue}-run` });
    await until(async () => (await memoOf(taskQueue, handle.workflowId)) !== undefined, 20_000, 'the run to bind its registry');
    b = startWorker(taskQueue, 'worker-b', 'example');
    await b.ready;
    await until(async () => (await pollers(registryQueue(taskQueue, fp))).length === 2, 20_000, 'both workers on the registry queue');
    await a.kill('SIGTERM');
    suite.model.reset();
    const result = await handle.result();
    expect(result.isSolution).toBe(true);
    expect(await memoOf(taskQueue, handle.workflowId)).toEqual({ bound: [{ queue: registryQueue(taskQueue, fp), worker: 'worker-a', tools: expect.any(Array) }] });
    const identities = new Set(
      ((await handle.fetchHistory()).events ?? []).flatMap((e) => [e.workflowTaskStartedEventAttributes?.identity, e.activityTaskStartedEventAttributes?.identity]).filter(Boolean),
    );
    expect([...identities].sort()).toEqual([`worker-a grove:${fp}`, `worker-b grove:${fp}`]);
    expect([...reports(a), ...reports(b)]).toEqual([]);
    const workers = await runCli(['workers', '--task-queue', taskQueue], { TEMPORAL_ADDRESS: suite.env.address, GROVE_STORE_DIR: join(dir, taskQueue, 'store') });
    // Worker A polled moments ago, so it is still listed (it may be restarting): "seen N s ago" tells.
    expect([workers.code, workers.stdout.split('\n')[0]]).toEqual([0, `task queue "${taskQueue}": 2 workers, 1 registry: they agree`]);
    for (const name of ['worker-a', 'worker-b']) {
      expect(workers.stdout).toMatch(new RegExp(`^  ${name}  registry ${fp}  tools final_answer, multiply, run_code · evaluators code-tests  seen \\d+ s ago$`, 'm'));
    }
  } finally {
    suite.model.reset();
    await b?.kill('SIGTERM');
    await a.kill('SIGTERM');
  }
}, 120_000);

test("a user's multiply beside the example's: each side reports the other once; a run uses its registry's tool", async () => {
  const taskQueue = uniqueTaskQueue('fleet-two');
  const [userFp, devFp] = [fingerprint('user'), fingerprint('example')];
  const user = startWorker(taskQueue, 'user-worker', 'user');
  const dev = startWorker(taskQueue, 'dev-worker', 'example');
  try {
    await Promise.all([user.ready, dev.ready]);
    await until(() => reports(user).length > 0 && reports(dev).length > 0, 20_000, 'both workers to report the other');
    await new Promise((r) => setTimeout(r, 1500)); // several more looks: still one report each
    expect(reports(user)).toHaveLength(1);
    expect(reports(user)[0]).toMatch(
      new RegExp(
        `grove: on task queue "${taskQueue}", worker user-worker \\(registry ${userFp}\\) and worker dev-worker \\(registry ${devFp}\\) differ: ` +
          'tool multiply differs \\([0-9a-f]{8} on user-worker, [0-9a-f]{8} on dev-worker\\)\\. Each run uses the registry of the worker that starts it',
      ),
    );
    expect(reports(dev)).toHaveLength(1);
    expect(reports(dev)[0]).toContain(`worker dev-worker (registry ${devFp}) and worker user-worker (registry ${userFp}) differ: tool multiply differs`);
    // `grove workers` says the same, and exits 1.
    const workers = await runCli(['workers', '--task-queue', taskQueue], { TEMPORAL_ADDRESS: suite.env.address, GROVE_STORE_DIR: join(dir, taskQueue, 'store') });
    expect(workers.code).toBe(1);
    expect(workers.stdout.split('\n').slice(0, 3)).toEqual([
      `task queue "${taskQueue}": 2 workers, 2 registries: they differ`,
      expect.stringMatching(new RegExp(`^  dev-worker   registry ${devFp}  tools final_answer, multiply, run_code · evaluators code-tests  seen \\d+ s ago$`)),
      expect.stringMatching(new RegExp(`^  user-worker  registry ${userFp}  tools final_answer, multiply, run_code · evaluators code-tests  seen \\d+ s ago$`)),
    ]);
    expect(workers.stdout).toMatch(/^  worker \S+ \(registry [0-9a-f]{16}\) and worker \S+ \(registry [0-9a-f]{16}\) differ: tool multiply differs \([0-9a-f]{8} on \S+, [0-9a-f]{8} on \S+\)$/m);

    const grove = groveClient(suite.env, taskQueue);
    // A run that pins the user's registry runs the user's tool, and never the example's.
    expect((await grove.run('agent', quickstartInput({ algorithm: 'greedy', registry: userFp }))).isSolution).toBe(true);
    const first = calls(taskQueue);
    expect(first.length).toBeGreaterThan(0);
    expect(new Set(first)).toEqual(new Set(['user']));
    // And the other way round.
    expect((await grove.run('agent', quickstartInput({ algorithm: 'greedy', registry: devFp }))).isSolution).toBe(true);
    const second = calls(taskQueue).slice(first.length);
    expect(second.length).toBeGreaterThan(0);
    expect(new Set(second)).toEqual(new Set(['example']));
    // Unpinned: the registry of whichever worker starts it — its memo says which, and only that tool ran.
    const free = await grove.run('agent', quickstartInput({ algorithm: 'greedy' }));
    const bound = (await memoOf(taskQueue, free.workflowId))!.bound[0]!;
    const third = calls(taskQueue).slice(first.length + second.length);
    const expected = bound.worker === 'user-worker' ? { fp: userFp, tool: 'user' } : { fp: devFp, tool: 'example' };
    expect([bound.queue, [...new Set(third)]]).toEqual([registryQueue(taskQueue, expected.fp), [expected.tool]]);
  } finally {
    await user.kill('SIGTERM');
    await dev.kill('SIGTERM');
  }
}, 150_000);

test("a fast tool never runs from another registry: refused on the worker holding the run, reported once, run on the run's registry", async () => {
  const taskQueue = uniqueTaskQueue('fleet-fast');
  const devFp = fingerprint('example');
  // The user's worker runs the workflows; a tool worker with the example's (fast) multiply runs none.
  const user = startWorker(taskQueue, 'user-worker', 'user');
  const tools = startWorker(taskQueue, 'tool-worker', 'example', { toolsOnly: true });
  try {
    await Promise.all([user.ready, tools.ready]);
    const result = await groveClient(suite.env, taskQueue).run('agent', quickstartInput({ algorithm: 'greedy', registry: devFp }));
    expect(result.isSolution).toBe(true);
    expect(new Set(calls(taskQueue))).toEqual(new Set(['example']));
    const memo = await memoOf(taskQueue, result.workflowId);
    expect(memo?.notes).toHaveLength(1);
    expect(memo!.notes![0]).toMatch(
      new RegExp(
        `^worker user-worker \\(registry [0-9a-f]{16}\\) holds the run but differs from its registry ${devFp} \\(worker tool-worker\\): ` +
          'tool multiply differs \\([0-9a-f]{8} on worker tool-worker, [0-9a-f]{8} on worker user-worker\\)',
      ),
    );
    expect(user.output()).toContain(`grove: ${memo!.notes![0]}`);
  } finally {
    await user.kill('SIGTERM');
    await tools.kill('SIGTERM');
  }
}, 120_000);

test('a worker that lacks a tool: the run is not killed, its status says why, and a worker that has it takes it on', async () => {
  const taskQueue = uniqueTaskQueue('fleet-lack');
  // A capable worker was here a moment ago (it is restarting): the run waits for it rather than failing.
  const capable = startWorker(taskQueue, 'capable-worker', 'example');
  await capable.ready;
  await until(async () => (await pollers(taskQueue)).includes('capable-worker'), 20_000, 'the capable worker to poll');
  await capable.kill('SIGTERM');
  const lacking = startWorker(taskQueue, 'lacking-worker', 'lacking');
  let again: WorkerProcess | undefined;
  try {
    await lacking.ready;
    const grove = groveClient(suite.env, taskQueue);
    const handle = await grove.start('agent', quickstartInput({ algorithm: 'greedy', llm: { initialRetryMs: 200, maxRetryIntervalMs: 500 } }));
    type Pending = { activityType?: { name?: string | null } | null; attempt?: number | null; lastFailure?: { message?: string | null } | null };
    let pending: Pending | undefined;
    await until(
      async () => {
        pending = ((await handle.describe()).raw.pendingActivities?.[0] ?? undefined) as Pending | undefined;
        return (pending?.attempt ?? 0) >= 2;
      },
      20_000,
      'the registry read to be retried',
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(pending!.activityType?.name).toBe('groveRegistry');
    expect(pending!.lastFailure?.message).toMatch(
      /^worker lacking-worker \(registry [0-9a-f]{16}\) lacks tool multiply \(it serves [^)]*\): waiting for a worker on this task queue that serves them all/,
    );
    again = startWorker(taskQueue, 'capable-worker', 'example');
    const result = await handle.result();
    expect(result.isSolution).toBe(true);
    const memo = await memoOf(taskQueue, handle.workflowId);
    expect(memo?.bound[0]?.worker).toBe('capable-worker');
    expect(memo?.notes).toEqual([
      expect.stringMatching(/^worker lacking-worker \(registry [0-9a-f]{16}\) lacks tool multiply: the run uses the registry of worker capable-worker \([0-9a-f]{16}\)$/),
      // The lacking worker still holds the run: the example's fast multiply is refused there and runs on the capable one.
      expect.stringMatching(/^worker lacking-worker \(registry [0-9a-f]{16}\) holds the run but differs from its registry [0-9a-f]{16} \(worker capable-worker\): tool multiply only on worker capable-worker; /),
    ]);
    expect(new Set(calls(taskQueue))).toEqual(new Set(['example']));
  } finally {
    await again?.kill('SIGTERM');
    await lacking.kill('SIGTERM');
  }
}, 120_000);

test('grove dev says when another worker polls its queue with other tools; with --no-worker it leaves the queue to it', async () => {
  const taskQueue = uniqueTaskQueue('fleet-dev');
  const home = join(dir, taskQueue, 'home');
  const env = { ...process.env, TEMPORAL_ADDRESS: suite.env.address, GROVE_HOME: home, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, GROVE_WORKER_MODULE: undefined };
  const startDev = (...args: string[]) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), 'dev', '--scripted', '--task-queue', taskQueue, ...args], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    return { output: () => output, stop: async () => (child.kill('SIGINT'), await exited) };
  };
  const user = startWorkerProcess({
    TEMPORAL_ADDRESS: suite.env.address,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: suite.model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_STORE_DIR: join(home, 'store'),
    GROVE_WORKFLOW_BUNDLE: suite.env.bundlePath,
    GROVE_WORKER_MODULE: 'test/fixtures/worker-modules/fleet-tools.ts',
    GROVE_TEST_FLEET_TOOLS: 'user',
    GROVE_WORKER_IDENTITY: 'user-worker',
  });
  let dev = startDev();
  try {
    await user.ready;
    await until(() => dev.output().includes('grove dev: worker user-worker also polls'), 60_000, 'grove dev to notice the user\'s worker');
    const notice = dev.output().split('\n').find((l) => l.includes('worker user-worker also polls'))!;
    expect(notice).toMatch(
      new RegExp(
        `^grove dev: worker user-worker also polls task queue "${taskQueue}" with other tools \\(registry ${fingerprint('user')}, this worker's [0-9a-f]{16}\\): ` +
          'evaluator multiplication-checker only on this worker; tool multiply differs \\([0-9a-f]{8} on this worker, [0-9a-f]{8} on user-worker\\); tool save_note only on this worker\\. ' +
          'Each run uses the tools of the worker that starts it \\(or the registry its input pins\\); to leave the queue to user-worker, restart with `grove dev --no-worker`$',
      ),
    );
    await dev.stop();

    dev = startDev('--no-worker');
    await until(() => dev.output().includes('grove dev: worker user-worker polls'), 60_000, 'grove dev --no-worker to see the user\'s worker');
    expect(dev.output()).toContain(`grove dev: no worker of its own (--no-worker): runs on task queue "${taskQueue}" wait for yours`);
    expect(dev.output()).toContain(`grove dev: worker user-worker polls task queue "${taskQueue}" (registry ${fingerprint('user')})`);
    // Only the user's worker serves the queue now: runs use its registry, so its tool.
    const result = await groveClient(suite.env, taskQueue).run('agent', quickstartInput({ algorithm: 'greedy' }));
    expect(result.isSolution).toBe(true);
    expect((await memoOf(taskQueue, result.workflowId))?.bound).toEqual([{ queue: registryQueue(taskQueue, fingerprint('user')), worker: 'user-worker', tools: expect.any(Array) }]);
  } finally {
    await dev.stop();
    await user.kill('SIGTERM');
  }
}, 150_000);
