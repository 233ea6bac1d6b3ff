import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer, type ModelServer } from '../../model-server';
import { noteTool } from '../../examples/tools/save-note';
import { exampleTools } from '../../examples/tools';
import { startWorkerProcess, until } from '../../workers/worker-process';
import { groveClient, openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';

let env: TestEnv;
let model: ModelServer;
let dir: string;

beforeAll(async () => {
  env = await openTestEnv();
  model = await startModelServer();
  dir = mkdtempSync(join(tmpdir(), 'grove-approval-'));
});
afterAll(async () => {
  await model?.close();
  await env?.close();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (file: string) => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const requestsOf = (workflowId: string) => model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`));

test('a tool requiring approval waits durably — its worker SIGKILLed meanwhile — is approved by an update, and runs once', async () => {
  const taskQueue = uniqueTaskQueue('approval');
  const notes = join(dir, `${taskQueue}.jsonl`);
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'test-key',
    GROVE_STORE_DIR: join(dir, 'store'),
    GROVE_WORKFLOW_BUNDLE: env.bundlePath,
    GROVE_WORKER_MODULE: 'examples/worker-module.ts',
    GROVE_NOTES_FILE: notes,
    GROVE_SEND_CALL_KEY: '1',
  };
  const grove = groveClient(env, taskQueue);
  const id = `${taskQueue}-chat`;
  const chat = grove.session(id, { input: { model: 'concierge', tools: ['save_note'] }, by: 'ana' });
  const first = startWorkerProcess(workerEnv);
  let second: ReturnType<typeof startWorkerProcess> | undefined;
  try {
    await first.ready;
    const reply = chat.send('Please save a note: call mom on Sunday');
    await until(async () => (await chat.pending().catch(() => [])).length === 1, 30_000, 'the call to wait for approval');
    const [pending] = await chat.pending();
    expect(pending).toMatchObject({ tool: 'save_note', arguments: '{"text":"call mom on Sunday"}', where: 'turn 1' });
    expect(lines(notes)).toEqual([]);

    await first.kill('SIGKILL');
    second = startWorkerProcess(workerEnv);
    await second.ready;
    // Still waiting on the new worker, and still nothing ran.
    expect((await chat.pending()).map((p) => p.callId)).toEqual([pending.callId]);
    expect(lines(notes)).toEqual([]);

    const decision = await chat.approve({ callId: pending.callId, by: 'bob', reason: 'fine' });
    expect(decision).toMatchObject({ callId: pending.callId, decision: 'approve', by: 'bob' });
    expect(await reply).toMatchObject({ ended: 'answered', reply: 'Done: Saved the note "call mom on Sunday".', calls: 2 });
    expect(lines(notes)).toEqual(['{"text":"call mom on Sunday"}']);

    const actions = await chat.actions();
    expect(actions.map((a) => [a.by, a.action, a.target])).toEqual([
      ['ana', 'send', 'turn 1'],
      ['bob', 'approve', `call ${pending.callId} (save_note)`],
    ]);
    expect(requestsOf(id).filter((r) => r.outcome === 'completed')).toHaveLength(2);
    expect(model.stats().callKeys.repeatedAfterCompletion).toBe(0);
    await chat.close();
    expect(lines(notes)).toHaveLength(1);
  } finally {
    await first.kill('SIGKILL');
    await second?.kill('SIGTERM');
  }
}, 90_000);

test('nobody decides in time: the default decision applies — reject (nothing runs) or approve', async () => {
  const taskQueue = uniqueTaskQueue('approval-timeout');
  const notes = join(dir, `${taskQueue}.jsonl`);
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL), tools: [...exampleTools, noteTool(notes)] });
  await worker.runUntil(async () => {
    const grove = groveClient(env, taskQueue);
    const rejecting = grove.session(`${taskQueue}-reject`, { input: { model: 'concierge', tools: ['save_note'], approval: { timeoutMs: 300 } } });
    const refused = await rejecting.send('save a note: nobody said yes');
    expect(refused.reply).toBe('I could not do that: save_note was not run: nobody approved it in time, and the run rejects calls by default.');
    expect(lines(notes)).toEqual([]);
    expect((await rejecting.actions()).map((a) => [a.by, a.action])).toEqual([
      [expect.any(String), 'send'],
      ['timeout', 'reject'],
    ]);

    const approving = grove.session(`${taskQueue}-approve`, { input: { model: 'concierge', tools: ['save_note'], approval: { timeoutMs: 300, onTimeout: 'approve' } } });
    const saved = await approving.send('save a note: approved by default');
    expect(saved.reply).toBe('Done: Saved the note "approved by default".');
    expect(lines(notes)).toEqual(['{"text":"approved by default"}']);
    await Promise.all([rejecting.close(), approving.close()]);
  });
});
