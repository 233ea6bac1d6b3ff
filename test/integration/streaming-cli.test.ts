import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { FileMessageStore } from '../../activities/store/file-message-store';
import { integrationSuite } from '../support/integration-suite';
import { runCli, runScript } from '../support/run-cli';
import { testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * `grove run --stream`, as a user runs it: the CLI in its own process reads the answer from the
 * folder store the worker (this process) writes — the token side channel across two processes —
 * and prints it on stderr as it grows; stdout is what it is without streaming. And
 * docs/streaming.md's example program, run as its readers would.
 */
const suite = integrationSuite('streaming-cli', { tokenDelayMs: 2 });
beforeEach(() => suite.model.reset());

test('grove run --stream prints the answer growing on stderr, and the same stdout as a run that does not stream', async () => {
  const taskQueue = uniqueTaskQueue('streaming-cli');
  const storeDir = mkdtempSync(join(process.env.GROVE_TEST_DIR ?? '/tmp', 'stream-store-'));
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), store: new FileMessageStore(storeDir) });
  const env = { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue, GROVE_STORE_URL: storeDir };
  const prompt = 'Tell me about rivers that flow north.';
  const { streamed, plain, partial } = await worker.runUntil(async () => {
    suite.model.hold({ model: 'echo' }, { afterTokens: 3 });
    let partial = '';
    const streamed = runCli(['run', 'generate', '--prompt', prompt, '--model', 'echo', '--stream', '--workflow-id', `${taskQueue}-a`], env, 120_000, {
      stderr: (text) => {
        // The first tokens are on stderr while the rest of the answer does not exist yet (the call is held).
        if (!partial && text.includes('Echo: Tell m')) {
          partial = text;
          suite.model.release();
        }
      },
    });
    const done = await streamed;
    const plain = await runCli(['run', 'generate', '--prompt', prompt, '--model', 'echo', '--workflow-id', `${taskQueue}-b`], env, 120_000);
    return { streamed: done, plain, partial };
  });
  const answer = `Echo: ${prompt}`;
  expect(streamed.code).toBe(0);
  expect(partial).not.toContain(answer);
  // (A run slower than 15 s also logs a progress line, between answers: not part of what streamed.)
  const withoutProgress = (text: string) => text.replace(/^progress: .*\n/gm, '');
  expect(withoutProgress(streamed.stderr)).toBe(`── generate: '${prompt}' ──\n${answer}\n`);
  expect(plain.code).toBe(0);
  expect(withoutProgress(plain.stderr)).toBe(''); // not a terminal: nothing streams without --stream
  expect(streamed.stdout.replace(`${taskQueue}-a`, 'ID')).toBe(plain.stdout.replace(`${taskQueue}-b`, 'ID'));
  expect(streamed.stdout).toContain(`answer:\n${answer}\n`);
}, 180_000);

test('--stream with --json or --no-stream is a usage mistake, named before anything starts', async () => {
  const json = await runCli(['run', 'generate', '--prompt', 'hi', '--stream', '--json']);
  expect(json).toMatchObject({ code: 2, stderr: 'grove: run generate: --stream does not go with --json: --json prints one JSON object and streams nothing\n' });
  const both = await runCli(['run', 'generate', '--prompt', 'hi', '--stream', '--no-stream']);
  expect(both).toMatchObject({ code: 2, stderr: 'grove: run generate: --stream and --no-stream contradict each other: give one\n' });
});

test("docs/streaming.md's example: a worker and a client in one program print the answer as it streams, then the run's end", async () => {
  const taskQueue = uniqueTaskQueue('streaming-example');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI_|TEMPORAL_|GROVE_STORE)/.test(k)));
  const prompt = 'Tell me a story about streams.';
  const child = await runScript(join('examples', 'streaming', 'watch-run.ts'), {
    ...env,
    TEMPORAL_ADDRESS: suite.env.address,
    GROVE_TASK_QUEUE: taskQueue,
    GROVE_STORE_DIR: join(process.env.GROVE_TEST_DIR!, `store-${taskQueue}`),
    OPENAI_BASE_URL: suite.model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_MODEL: 'echo',
  }, [prompt]);
  expect(child).toMatchObject({ code: 0, stderr: '' });
  expect(child.stdout).toMatch(new RegExp(`^\\[generate: '${prompt}'\\]\nEcho: ${prompt}\n\\[done\\]\ngenerate-\\w+: succeeded\n$`));
  const log = suite.model.stats().requests;
  expect(log.map((r) => [r.outcome, r.streamed])).toEqual([['completed', true]]); // it did stream
}, 180_000);
