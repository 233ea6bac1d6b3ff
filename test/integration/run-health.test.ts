import type { Worker } from '@temporalio/worker';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunHealth } from '../../temporal/runs/run-health';
import { freePort } from '../../client/temporal-server/ports';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { startModelServer, type ModelServer } from '../../model-server';
import type { RunSummary, RunView } from '../../ui/model/view-tree';
import { RunSource } from '../../ui/server/run-source';
import { startUiServer, type UiServer } from '../../ui/server/ui-server';
import { openBrowser } from '../../bench/lib/browser';
import { artifact } from '../support/artifacts';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { ROOT, runCli } from '../support/run-cli';
import { until } from '../../workers/worker-process';
import { groveClient, openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';

/**
 * A run stuck in retries says so everywhere a user looks: with the model endpoint down (a closed
 * port), `GroveClient`, `grove progress`, `grove list`, `grove run`'s progress line and the viewer
 * (its API and its page) show the pending model call, its attempts since when, the last failure
 * and when the next attempt is due — and mark the run stalled once that has gone on longer than
 * the threshold (3 s here, `GROVE_STALLED_AFTER_MS`). A run whose model is merely slow stays `ok`.
 */
const STALLED_AFTER_MS = 3_000;
let env: TestEnv;
let worker: Worker;
let running: Promise<void>;
let deadURL: string;
let ui: UiServer;
const taskQueue = uniqueTaskQueue('health');
const retrying = { initialRetryMs: 500, maxRetryIntervalMs: 2_000 };

beforeAll(async () => {
  env = await openTestEnv();
  deadURL = `http://127.0.0.1:${await freePort()}/v1`; // nothing listens: every attempt is refused
  worker = await testWorker(env, { taskQueue, llm: testLlmConfig(deadURL) });
  running = worker.run();
  ui = await startUiServer({ source: new RunSource({ client: env.client, store: new MemoryMessageStore(), stalledAfterMs: STALLED_AFTER_MS }), port: 0 });
});
afterAll(async () => {
  await ui?.close();
  worker?.shutdown();
  await running;
  await env?.close();
});

const cli = (args: string[]) => runCli(args, { TEMPORAL_ADDRESS: env.address, GROVE_TASK_QUEUE: taskQueue, GROVE_STALLED_AFTER_MS: String(STALLED_AFTER_MS) }, 60_000);
/** `grove …` in its own process, its stderr read as it comes. */
function spawnCli(args: string[]) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), ...args], {
    cwd: ROOT,
    env: { ...process.env, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, TEMPORAL_ADDRESS: env.address, GROVE_TASK_QUEUE: taskQueue, GROVE_STALLED_AFTER_MS: String(STALLED_AFTER_MS) },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { stderr: () => stderr, exited };
}
const get = async <T>(path: string): Promise<T> => (await fetch(new URL(path, ui.url))).json() as Promise<T>;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What every surface must say of the stuck call (the step's "next attempt" or "running" tail varies with the instant). */
const stuckLine = () =>
  new RegExp(
    `^stalled: model call \\(llmChat\\) expand n0 \\(depth 0\\): \\d+ candidates? — \\d+ failed attempts since \\d\\d:\\d\\d:\\d\\d, ` +
      `last: GroveNetworkError: cannot reach the model endpoint at ${escape(deadURL)} \\(ECONNREFUSED\\): check OPENAI_BASE_URL and that the server is running; ` +
      `(next attempt in \\d+ s|next attempt due now|attempt \\d+ running for \\d+ s)$`,
  );

function expectStuck(health: RunHealth | undefined, minAttempt = 3): void {
  expect(health).toMatchObject({ state: 'stalled', stalledAfterMs: STALLED_AFTER_MS });
  const step = health!.pending[0];
  expect(step).toMatchObject({
    kind: 'model call',
    activityType: 'llmChat',
    summary: expect.stringMatching(/^expand n0 \(depth 0\)/),
    lastFailure: { type: 'GroveNetworkError', message: expect.stringContaining(`cannot reach the model endpoint at ${deadURL} (ECONNREFUSED)`) },
  });
  expect(step.attempt).toBeGreaterThanOrEqual(minAttempt);
  if (step.state === 'backoff') expect(Date.parse(step.nextAttemptAt!)).toBeGreaterThan(Date.parse(health!.checkedAt) - 1000);
  expect(Date.parse(health!.checkedAt) - Date.parse(step.since!)).toBeGreaterThanOrEqual(STALLED_AFTER_MS);
  expect(health!.line).toMatch(stuckLine());
}

test('a search against a dead model endpoint: GroveClient, grove progress, grove list, grove run and the viewer say it is stalled, and why', async () => {
  const grove = groveClient(env, taskQueue);
  const inputFile = join(process.env.GROVE_TEST_DIR ?? '/tmp', `${taskQueue}.json`);
  writeFileSync(inputFile, JSON.stringify(quickstartInput({ llm: retrying })));
  // `grove run` as a log sees it: its progress line every 15 s (stderr is not a terminal).
  const run = spawnCli(['run', 'agent', '--input', inputFile, '--workflow-id', `${taskQueue}-cli`]);
  const handle = await grove.start('agent', quickstartInput({ llm: retrying }), { workflowId: `${taskQueue}-stuck` });
  const cancelBoth = () => Promise.all([grove.cancel(`${taskQueue}-cli`), grove.cancel(handle.workflowId)]).catch(() => undefined);
  try {

  // Before the threshold it is retrying; the same run judged with a long threshold stays "retrying".
  let health = await grove.health(handle.workflowId, { stalledAfterMs: STALLED_AFTER_MS });
  for (let i = 0; i < 200 && !(health.state === 'stalled' && health.pending[0]?.attempt >= 3); i++) {
    await new Promise((r) => setTimeout(r, 100));
    health = await grove.health(handle.workflowId, { stalledAfterMs: STALLED_AFTER_MS });
  }
  expectStuck(health);
  expect((await grove.health(handle.workflowId, { stalledAfterMs: 600_000 })).state).toBe('retrying');
  expect((await grove.state(handle.workflowId, { stalledAfterMs: STALLED_AFTER_MS })).status).toBe('running'); // its status is still the truth

  const progress = await cli(['progress', handle.workflowId]);
  expect(progress.code).toBe(0);
  const shown = JSON.parse(progress.stdout) as { counters: { llmCalls: number }; health: RunHealth };
  expect(shown.counters.llmCalls).toBe(0); // the counters alone look harmless…
  expectStuck(shown.health); // …the health does not
  process.stderr.write(`grove progress ${handle.workflowId}:\n${progress.stdout}\n`);

  const list = await cli(['list', '--status', 'running', '--limit', '50']);
  const row = list.stdout.split('\n').find((l) => l.startsWith(handle.workflowId));
  expect(list.stdout.split('\n')[0]).toMatch(/ AGE +TROUBLE$/);
  expect(row).toMatch(new RegExp(`^${handle.workflowId} +agent:mcts +stalled +[-0] +- +\\d+s +model call \\(llmChat\\) expand n0 .*last: GroveNetworkError: cannot reach the model endpoint`));
  const listed = JSON.parse((await cli(['list', '--status', 'running', '--limit', '50', '--json'])).stdout) as { workflowId: string; health: RunHealth }[];
  expectStuck(listed.find((r) => r.workflowId === handle.workflowId)?.health);
  process.stderr.write(`grove list --status running:\n${list.stdout}\n`);

  // The viewer: its JSON API (list and run page), then the page itself.
  const { runs } = await get<{ runs: RunSummary[] }>('/api/runs?status=running&limit=50');
  expectStuck(runs.find((r) => r.workflowId === handle.workflowId)?.health);
  const view = await get<RunView>(`/api/runs/${encodeURIComponent(handle.workflowId)}`);
  expectStuck(view.run.health);
  expect(view.run.status).toBe('running');
  process.stderr.write(`viewer GET /api/runs/${handle.workflowId} → run.health:\n${JSON.stringify(view.run.health, null, 2)}\n`);

  const browser = await openBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
    await page.goto(`${ui.url}#/?status=running`);
    const trouble = page.locator(`tr.trouble[data-trouble-for="${handle.workflowId}"]`);
    await trouble.waitFor();
    await expect(page.locator(`tr[data-workflow-id="${handle.workflowId}"]`).innerText()).resolves.toMatch(/agent:mcts\s+stalled/);
    await expect(trouble.innerText()).resolves.toMatch(stuckLine());
    await page.screenshot({ path: artifact('run-health-list.png') });
    await page.goto(`${ui.url}#/run/${encodeURIComponent(handle.workflowId)}`);
    await page.getByTestId('trouble').waitFor();
    await expect(page.getByTestId('run-status').innerText()).resolves.toBe('stalled');
    const banner = await page.getByTestId('trouble').innerText();
    expect(banner).toMatch(stuckLine());
    await page.screenshot({ path: artifact('run-health-page.png') });
    process.stderr.write(`viewer run page banner: ${banner}\n`);
  } finally {
    await browser.close();
  }

  // `grove run` prints its first progress line 15 s after it started waiting: counters, then the trouble.
  await until(() => run.stderr().includes('\nprogress: ') || run.stderr().startsWith('progress: '), 60_000, 'a progress line from grove run');
  } finally {
    await cancelBoth();
  }
  const code = await run.exited;
  const stderr = run.stderr();
  expect(code).toBe(1);
  const logged = stderr.split('\n').find((l) => l.startsWith('progress: '));
  expect(logged).toMatch(/^progress: step 0 · 1 node · 0\/\d+ model calls · 0 tool runs · .* tokens · \d+ s · stalled: model call \(llmChat\) expand n0 .*last: GroveNetworkError: cannot reach the model endpoint/);
  process.stderr.write(`grove run (stderr, a log):\n${stderr}\n`);
}, 120_000);

test('a run whose model is slow, not failing, is ok: no false alarm', async () => {
  const model: ModelServer = await startModelServer();
  model.addFault({ action: { kind: 'latency', ms: 8_000 }, times: 0 });
  const queue = uniqueTaskQueue('health-slow');
  const slowWorker = await testWorker(env, { taskQueue: queue, llm: testLlmConfig(model.baseURL) });
  try {
    await slowWorker.runUntil(async () => {
      const grove = groveClient(env, queue);
      const handle = await grove.start('generate', { prompt: 'hi', model: 'echo' });
      for (let i = 0; i < 100 && model.stats().total.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, STALLED_AFTER_MS + 500));
      const health = await grove.health(handle.workflowId, { stalledAfterMs: STALLED_AFTER_MS });
      expect(health).toMatchObject({ state: 'ok', line: '', pending: [{ kind: 'model call', state: 'running', attempt: 1 }] });
      await handle.result();
    });
  } finally {
    await model.close();
  }
}, 60_000);
