import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { describeFailure } from '../../client/cli/describe-failure';
import { McpServers } from '../../activities/mcp/mcp-servers';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { finalAnswer } from '../../examples/tools/final-answer';
import { multiplicationPlan, startModelServer, type ModelServer } from '../../model-server';
import { GrovePlugin } from '../../workers/grove-plugin';
import { startWorkerProcess, until } from '../../workers/worker-process';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { testMcpServer } from '../support/mcp-servers';
import { runCli } from '../support/run-cli';
import { groveClient, openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';

/**
 * MCP tools in durable runs: real MCP server processes (docs/mcp.md's calculator, the test
 * tree's server) behind real workers on the shared Temporal dev server, driven by the scripted
 * `multiplier` model — the Saplings quickstart with `multiply` served over MCP.
 */

let env: TestEnv;
let model: ModelServer;
let scratch: string;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  env = await openTestEnv();
  model = await startModelServer();
  scratch = mkdtempSync(join(tmpdir(), 'grove-mcp-'));
});
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
});
afterAll(async () => {
  await model?.close();
  await env?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const PLAN = multiplicationPlan();
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** Environment of a worker process on `taskQueue` against this file's servers. */
const workerEnv = (taskQueue: string, more: Record<string, string>) => ({
  TEMPORAL_ADDRESS: env.address,
  GROVE_TASK_QUEUE: taskQueue,
  OPENAI_BASE_URL: model.baseURL,
  OPENAI_API_KEY: 'test-key',
  GROVE_SEND_CALL_KEY: '1',
  GROVE_STORE_DIR: join(scratch, 'store'),
  GROVE_WORKFLOW_BUNDLE: env.bundlePath,
  GROVE_WORKER_MODULE: 'examples/worker-module.ts',
  ...more,
});

test("docs/mcp.md's example: grove tools shows the MCP tool's schema, and an MCTS run calls it through the example worker that serves it", async () => {
  const listed = await runCli(['tools', '--mcp', 'calc=node -r tsx/cjs examples/mcp/calculator-server.ts', '--mcp-tools', 'calc=multiply', '--json']);
  expect(listed.stderr).toBe('');
  const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; parameters: unknown; source: unknown }[] };
  expect(tools.find((t) => t.name === 'calc__multiply')).toEqual({
    name: 'calc__multiply',
    description: 'Multiplies two numbers and returns the result number.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number', description: 'The number to multiply.' }, b: { type: 'number', description: 'The number to multiply by.' } },
      required: ['a', 'b'],
    },
    strict: false,
    isTerminal: false,
    hasIsActive: false,
    source: { kind: 'mcp', server: 'calc', tool: 'multiply' },
  });

  // The documented worker of one's own (examples/mcp/worker.ts: GrovePlugin with mcpServers).
  const taskQueue = uniqueTaskQueue('mcp-docs');
  const worker = startWorkerProcess(workerEnv(taskQueue, {}), { args: ['-r', 'tsx/cjs', 'examples/mcp/worker.ts'], readyLine: 'worker on ' });
  cleanup.push(() => worker.kill('SIGTERM'));
  await worker.ready;
  expect(worker.output()).toContain(`worker on ${taskQueue}: serving final_answer, calc__multiply`);
  const run = await runCli(['run', 'agent', '--input', 'examples/inputs/multiplication-mcp.json', '--json'], { TEMPORAL_ADDRESS: env.address, GROVE_TASK_QUEUE: taskQueue }, 120_000);
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout);
  expect(result).toMatchObject({ status: 'succeeded', isSolution: true });
  expect(Number(result.answer)).toBeCloseTo(PLAN.answer, 0);

  // Every call went through the task queue as a groveRunTool activity, recorded in history.
  const history = await env.client.workflow.getHandle(result.workflowId).fetchHistory();
  const toolRuns = (history.events ?? []).flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    return a?.activityType?.name === 'groveRunTool' ? [JSON.parse(Buffer.from(a.input!.payloads![0]!.data!).toString()).call.function.name as string] : [];
  });
  expect(toolRuns.filter((n) => n === 'calc__multiply').length).toBeGreaterThanOrEqual(PLAN.steps.length);
}, 150_000);

test('a worker SIGKILLed mid-run is replaced; no MCP call that finished is made again, and its server does not outlive it', async () => {
  const spec = quickstartInput({ algorithm: 'greedy', model: 'multiplier', tools: ['test__multiply', 'final_answer'], llm: { heartbeatTimeoutMs: 2000 } });

  // The reference: the same run, uninterrupted, with its own call log.
  const refLog = join(scratch, 'reference.log');
  const refQueue = uniqueTaskQueue('mcp-crash-ref');
  const refWorker = await testWorker(env, { taskQueue: refQueue, llm: testLlmConfig(model.baseURL), mcpServers: { test: testMcpServer({ env: { GROVE_TEST_MCP_LOG: refLog } }) } });
  const reference = await refWorker.runUntil(groveClient(env, refQueue).run('agent', spec, { workflowId: `${refQueue}-run` }));
  expect(reference.isSolution).toBe(true);
  expect(lines(refLog)).toEqual(PLAN.steps.map((s) => `multiply ${s.a} ${s.b}`));

  // The crash run: the model call after the second multiplication hangs; the worker dies there.
  const log = join(scratch, 'crash.log');
  const pids = join(scratch, 'crash.pids');
  const config = join(scratch, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { test: testMcpServer({ env: { GROVE_TEST_MCP_LOG: log, GROVE_TEST_MCP_PIDS: pids } }) } }));
  const taskQueue = uniqueTaskQueue('mcp-crash');
  const workflowId = `${taskQueue}-run`;
  model.addFault({ match: { model: 'multiplier', callKeyPrefix: `${workflowId}/`, contains: String(PLAN.steps[1].value) }, action: { kind: 'hang' } });
  const spawnWorker = () => startWorkerProcess(workerEnv(taskQueue, { GROVE_MCP_CONFIG: config }));
  const first = spawnWorker();
  cleanup.push(() => first.kill('SIGKILL'));
  await first.ready;
  const handle = await groveClient(env, taskQueue).start('agent', spec, { workflowId });
  await until(() => model.stats().total.inFlight > 0, 60_000, 'the hanging model call');
  expect(lines(log)).toHaveLength(2);
  const [firstServer] = lines(pids).map(Number);

  await first.kill('SIGKILL');
  // Its MCP server saw its stdin close and exited: nothing is left behind.
  await until(() => !alive(firstServer), 15_000, "the dead worker's MCP server to exit");

  const second = spawnWorker();
  cleanup.push(() => second.kill('SIGTERM'));
  const result = await handle.result();
  expect(result.tree).toEqual(reference.tree);
  expect(result.answer).toBe(reference.answer);
  // The two calls made before the crash were not made again: the log is the reference's, once each.
  expect(lines(log)).toEqual(lines(refLog));
  expect(lines(pids)).toHaveLength(2);

  // Replaying the finished run's history (with the MCP server configured) calls no MCP server.
  const mcp = new McpServers({ test: testMcpServer({ env: { GROVE_TEST_MCP_LOG: log } }) });
  cleanup.push(() => mcp.close());
  await Worker.runReplayHistory(
    { workflowBundle: { codePath: env.bundlePath }, plugins: [new GrovePlugin({ mcpServers: mcp, store: new MemoryMessageStore(), tools: [finalAnswer], llm: testLlmConfig(model.baseURL) })] },
    await handle.fetchHistory(),
    workflowId,
  );
  expect(mcp.connections[0].starts).toBe(0);
  expect(lines(log)).toEqual(lines(refLog));
}, 180_000);

test('a server that dies on every call fails the run with GroveMcpUnavailable after the retries, naming the server; each attempt started it again', async () => {
  const log = join(scratch, 'broken.log');
  const pids = join(scratch, 'broken.pids');
  const taskQueue = uniqueTaskQueue('mcp-broken');
  const worker = await testWorker(env, {
    taskQueue,
    llm: testLlmConfig(model.baseURL),
    mcpServers: { broken: testMcpServer({ env: { GROVE_TEST_MCP_LOG: log, GROVE_TEST_MCP_PIDS: pids, GROVE_TEST_MCP_BROKEN: '1' } }) },
  });
  const spec = quickstartInput({ algorithm: 'greedy', model: 'multiplier', tools: ['broken__multiply', 'final_answer'], llm: { initialRetryMs: 100 } });
  const err = await worker.runUntil(groveClient(env, taskQueue).run('agent', spec).catch((e: unknown) => e));
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect(describeFailure(err)).toMatch(
    /^tool \(groveRunTool\) gave up: it used all 3 attempts it may make \(llm\.maxAttempts; tools: at most 3\); last error: GroveMcpUnavailable: MCP server "broken": tools\/call multiply failed: .*Connection closed/,
  );
  const types: unknown[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) types.push((e as { type?: string }).type);
  expect(types).toContain('GroveMcpUnavailable');
  // The tool port gives an infrastructure failure 3 attempts; each after the first found the server dead and started it again.
  expect(lines(log)).toEqual(Array(3).fill(`multiply ${PLAN.steps[0].a} ${PLAN.steps[0].b}`));
  expect(lines(pids)).toHaveLength(3);
}, 120_000);

test('grove worker serves the --mcp servers and the config file\'s together, and stops their processes when it stops', async () => {
  const pids = join(scratch, 'cli.pids');
  const config = join(scratch, 'cli-mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { fromfile: testMcpServer({ env: { GROVE_TEST_MCP_PIDS: pids }, tools: ['pid'] }) } }));
  const taskQueue = uniqueTaskQueue('mcp-cli');
  const worker = startWorkerProcess(
    workerEnv(taskQueue, { GROVE_MCP_CONFIG: config, GROVE_TEST_MCP_PIDS: pids }),
    { args: ['bin/grove', 'worker', '--mcp', `flags=${process.execPath} -r tsx/cjs test/fixtures/mcp/test-server.ts`, '--mcp-tools', 'flags=pid', '--mcp-env', 'flags=GROVE_TEST_MCP_PIDS'] },
  );
  cleanup.push(() => worker.kill('SIGKILL'));
  await worker.ready;
  expect(worker.output()).toMatch(/serving multiply, final_answer, save_note, flags__pid, fromfile__pid, /);
  const servers = lines(pids).map(Number);
  expect(servers).toHaveLength(2);
  expect(servers.every(alive)).toBe(true);
  await worker.kill('SIGTERM');
  await until(() => !servers.some(alive), 15_000, 'the MCP servers to stop with the worker');
}, 60_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
