import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalModelFile } from '../../client/local/local-model-file';
import { resolveTemporalCli } from '../../client/temporal-server/cli-binary';
import { freePort } from '../../client/temporal-server/ports';
import { runCli } from '../support/run-cli';
import { openTestEnv, type TestEnv } from '../support/temporal-env';

let env: TestEnv;
let scratch: string;

beforeAll(async () => {
  env = await openTestEnv();
  scratch = mkdtempSync(join(tmpdir(), 'grove-demo-'));
});
afterAll(async () => {
  await env?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs `grove demo … --exit` as a user would, with no model endpoint configured; it must exit 0 and print nothing on stderr. */
async function demo(args: string[], extraEnv: Record<string, string>, timeoutMs: number): Promise<string> {
  const run = await runCli(['demo', ...args, '--exit'], { ...extraEnv, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined }, timeoutMs);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

/** Who ran each model call of a run, and on which attempt, from its history in Temporal. */
async function modelCallsOf(workflowId: string) {
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const types = new Map(events.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => [String(e.eventId), e.activityTaskScheduledEventAttributes!.activityType!.name]));
  const byWorker = (identity: string | null | undefined) => (identity ?? '').split('@')[0];
  return {
    calls: events
      .filter((e) => e.activityTaskStartedEventAttributes && types.get(String(e.activityTaskStartedEventAttributes.scheduledEventId)) === 'llmChat')
      .map((e) => ({ by: byWorker(e.activityTaskStartedEventAttributes!.identity), attempt: e.activityTaskStartedEventAttributes!.attempt })),
    deciders: [...new Set(events.filter((e) => e.workflowTaskCompletedEventAttributes).map((e) => byWorker(e.workflowTaskCompletedEventAttributes!.identity)))],
  };
}

test('the demo with --scripted: a code fixer decided by tests in the sandbox, its worker stopped mid-run and replaced, no answered call paid twice — the same story every time', async () => {
  const out = await demo(['--scripted'], { GROVE_HOME: join(scratch, 'scripted-home'), TEMPORAL_ADDRESS: env.address }, 150_000);
  expect(out).toContain("  tests, run with every answer in grove's sandbox — they decide, not the model:\n    assert(isPalindrome('racecar'));\n");
  // The stop, the verdict of the tests, the code, the tree with what the sandbox said of each attempt.
  expect(out).toMatch(new RegExp([
    'worker 1: stopped after 1 finished model call, with call 2 open \\(held unanswered at the model server, so the stop falls between answers\\)',
    'worker 2: started; it rebuilt the run from its history in Temporal and went on from there',
    '',
    'completed: fixed: 3/3 tests passed in the sandbox \\(2 attempts, 1 feedback round\\) — 2 model calls, [\\d,]+ tokens',
    'code:',
    'function isPalindrome\\(s\\) \\{',
  ].join('\n')));
  expect(out).toContain([
    'the tree it grew (each attempt: what running it with the tests showed):',
    'SampleNode(id: 0, stats: 1/2, score: 0.5, length: 2)',
    '└─ SampleNode(id: 1, stats: 1/2, score: 1.33, length: 3) → test failed: 2/3 tests passed',
    '   └─ SampleNode(id: 2, stats: 1/1, score: 2.18, length: 5) → passed: 3/3 tests (returned)',
  ].join('\n'));
  // What it paid, counted by grove and by the model server: the same calls, none paid twice.
  expect(out).toMatch(/\npaid: 2 model calls by grove's count \(2 answers, [\d,]+ tokens\) and 2 sandbox runs, in [\d.]+ s\n/);
  expect(out).toContain("\nthe model server's own count: 2 requests answered for this run (1 before the stop, 1 after) — the 2 grove counted; no call it had answered was asked again\n");
  expect(out).toContain('\n  1 request cut off unanswered at the stop, asked again by worker 2 (never answered, so not paid twice)\n');
  // Temporal's history agrees: worker 1 made the first call; the second, cut off on worker 1, was made on its second attempt by worker 2, and both workers decided.
  const workflowId = /\nworkflow: (code-fixer-demo-[0-9a-z]+)\n/.exec(out)![1]!;
  const { calls, deciders } = await modelCallsOf(workflowId);
  expect(calls).toEqual([{ by: 'grove-demo-worker-1', attempt: 1 }, { by: 'grove-demo-worker-2', attempt: 2 }]);
  expect(deciders.sort()).toEqual(['grove-demo-worker-1', 'grove-demo-worker-2']);
}, 200_000);

test('README command 1: with no model configured, the demo runs the code fixer on the embedded local model and tells the truth about it', async () => {
  const cli = await resolveTemporalCli();
  const [port, uiPort] = [await freePort(), await freePort()];
  const out = await demo([], {
    GROVE_HOME: join(scratch, 'local-home'),
    GROVE_LOCAL_MODEL_PATH: await ensureLocalModelFile(),
    GROVE_TEMPORAL_PORT: String(port),
    GROVE_UI_PORT: String(uiPort),
    TEMPORAL_CLI_PATH: cli.path,
  }, 300_000);
  expect(out).toContain(`dev server ready on 127.0.0.1:${port}, UI http://127.0.0.1:${uiPort}`);
  expect(out).toMatch(/grove's local model answers at http:\/\/127\.0\.0\.1:\d+\/v1: smollm2 \(SmolLM2-135M-Instruct on the CPU/);
  expect(out).not.toContain("grove's scripted");
  // Whatever the tiny model wrote, the verdict is the tests' in the sandbox — never a model's opinion.
  const headline = /\ncompleted: (fixed: (\d+)\/\2 tests passed in the sandbox|not fixed: [^\n]+) \(\d+ attempts?, \d+ feedback rounds?\) — (\d+) model calls?( \(\d+ samples\))?, [\d,]+ tokens\n/.exec(out);
  expect(headline).not.toBeNull();
  expect(out).not.toMatch(/judged|not verified/);
  const fixed = headline![1]!.startsWith('fixed');
  const modelCalls = Number(headline![3]);
  // The tree it grew, each attempt labelled with what the sandbox said; a fixed run returns a passing attempt.
  const tree = out.slice(out.indexOf('the tree it grew')).split('\n').slice(1).filter((l) => l.includes('SampleNode('));
  expect(tree[0]).toMatch(/^SampleNode\(id: 0, /);
  for (const line of tree.slice(1)) expect(line).toMatch(/ → (passed: \d+\/\d+ tests|test failed: \d+\/\d+ tests passed|\w+ error(: \d+\/\d+ tests passed)?|no js code in the answer|not run)( \(its answer was cut: it reached max_tokens\))?( \(returned\))?$/);
  if (fixed) expect(tree.some((l) => / → passed: (\d+)\/\1 tests \(returned\)$/.test(l))).toBe(true);
  else expect(out).toContain(`The model did not pass the tests within ${modelCalls} model call`);
  // The stop happened (a run that needs more than its first call) and the model server's own count equals grove's, none paid twice.
  if (modelCalls > 1) {
    expect(out).toContain('worker 1: stopped after 1 finished model call, with call 2 open');
    expect(out).toContain(`the model server's own count: ${modelCalls} requests answered for this run (1 before the stop, ${modelCalls - 1} after) — the ${modelCalls} grove counted; no call it had answered was asked again`);
  } else {
    expect(out).toContain('worker 1 finished the run within 1 model call, before the stop: no restart this time');
  }
  expect(out).toMatch(new RegExp(`\\nworkflow: code-fixer-demo-[0-9a-z]+\\nTemporal UI: http://127\\.0\\.0\\.1:${uiPort}/namespaces/default/workflows/code-fixer-demo-[0-9a-z]+\\n`));
}, 360_000);
