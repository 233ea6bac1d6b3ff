import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { FileMessageStore } from '../../activities/store/file-message-store';
import { RunSource } from '../../ui/server/run-source';
import { startUiServer } from '../../ui/server/ui-server';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { runCli } from '../support/run-cli';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';
import { exampleTools } from '../../examples/tools';
import { noteTool } from '../../examples/tools/save-note';

/**
 * One truth on every surface: for finished runs of every kind — an MCTS search, an airetry that
 * draws two samples per request, a code fixer, a generate, a session, and a search a person
 * stopped — `grove result` (text and `--json`), `grove show`, `grove progress`, `grove list
 * --json`, the viewer's run list and `GroveClient` report the same figures (docs/runs.md, "The
 * figures"), and the model calls they report are the requests the model server answered for the
 * run. Each command leads with the outcome; a stopped search's partial answer is labelled as such.
 */
const suite = integrationSuite('truth');

const cli = (args: string[], taskQueue: string) => runCli(args, { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue }, 90_000);
/** What the model server answered for a run: the ground truth a count must match. */
const answered = (workflowId: string) =>
  suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`) && r.outcome === 'completed').length;
const figures = (o: Record<string, unknown>) => ({ modelCalls: o.modelCalls, tokens: o.tokens, best: o.best });

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('every surface reports the same figures for runs of each kind, and the model calls are the requests answered', async () => {
  const storeDir = mkdtempSync(join(process.env.GROVE_TEST_DIR ?? '/tmp', 'truth-store-'));
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const id = (name: string) => `${taskQueue}-${name}`;
    await grove.run('agent', quickstartInput({ seed: 2 }), { workflowId: id('mcts') });
    await grove.run('airetry', JSON.parse(readFileSync('examples/inputs/color-game.json', 'utf8')), { workflowId: id('airetry') });
    await grove.run('code-fixer', JSON.parse(readFileSync('examples/inputs/code-fixer.json', 'utf8')), { workflowId: id('code-fixer') });
    await grove.run('generate', { prompt: 'Say hi!', model: 'assistant' }, { workflowId: id('generate') });
    const chat = grove.session(id('session'), { input: { model: 'concierge' }, by: 'ana' });
    await chat.send('What is the capital of France?');
    await chat.send('And of Italy?');
    await chat.close();
    // A search a person stops: its 4th request is held until the stop is in, so it stops mid-search by construction.
    suite.model.hold({ callKeyPrefix: `${id('stopped')}/` });
    const stopped = await grove.start('agent', quickstartInput({ seed: 2 }), { workflowId: id('stopped') });
    await until(() => suite.model.stats().held.length > 0);
    await grove.steer('ana').stop(stopped.workflowId);
    suite.model.release();
    await stopped.result();

    const names = ['mcts', 'airetry', 'code-fixer', 'generate', 'session', 'stopped'];
    const list = JSON.parse((await cli(['list', '--json', '--limit', '50'], taskQueue)).stdout) as Array<Record<string, unknown>>;
    const server = await startUiServer({ source: new RunSource({ client: suite.env.client, store: new FileMessageStore(storeDir), temporalUiUrl: 'http://127.0.0.1:8233' }), port: 0 });
    const api = async <T>(path: string) => (await (await fetch(new URL(path, server.url))).json()) as T;
    const viewer = (await api<{ runs: Array<Record<string, unknown>> }>('api/runs?limit=50')).runs;
    for (const name of names) {
      const workflowId = id(name);
      const json = JSON.parse((await cli(['result', workflowId, '--json'], taskQueue)).stdout) as Record<string, unknown>;
      const text = (await cli(['result', workflowId], taskQueue)).stdout.split('\n');
      const show = (await cli(['show', workflowId], taskQueue)).stdout.split('\n');
      const progress = JSON.parse((await cli(['progress', workflowId], taskQueue)).stdout) as Record<string, unknown>;
      const client = await grove.progress(workflowId);
      const listed = list.find((r) => r.workflowId === workflowId)!;
      const viewed = viewer.find((r) => r.workflowId === workflowId)!;
      const truth = answered(workflowId);

      expect([name, json.modelCalls]).toEqual([name, truth]);
      expect([name, figures(progress)]).toEqual([name, figures(json)]);
      expect([name, figures(client)]).toEqual([name, figures(json)]);
      // Search attributes (list, viewer) hold model calls, tokens and best; a session and a generate record no best.
      expect([name, listed.modelCalls, listed.tokens, listed.best]).toEqual([name, truth, json.tokens, json.best]);
      expect([name, viewed.calls, viewed.tokens ?? json.tokens, viewed.bestScore]).toEqual([name, truth, json.tokens, json.best]);
      // Outcome first, the same words in result, show and progress, naming the count.
      expect([name, text[0]]).toEqual([name, progress.summary]);
      expect([name, show[0]]).toEqual([name, progress.summary]);
      expect(text[0]).toContain(`${truth} model call${truth === 1 ? '' : 's'}`);
      // The viewer's page of the run leads with the same outcome.
      const page = await api<{ facts: [string, string][]; note?: string }>(`api/runs/${workflowId}`);
      expect([name, page.facts[0]]).toEqual([name, ['outcome', progress.summary]]);
    }
    await server.close();

    const stoppedRun = await cli(['result', id('stopped')], taskQueue);
    const stoppedText = stoppedRun.stdout.split('\n');
    expect(stoppedText[0]).toMatch(/^stopped by ana: not solved/);
    // A person's stop is a status of its own, not a budget that ran out: in the list, its filter, the viewer and the exit code (3: no solution).
    expect(stoppedRun.code).toBe(3);
    expect(list.find((r) => r.workflowId === id('stopped'))!.status).toBe('stopped');
    expect(viewer.find((r) => r.workflowId === id('stopped'))!.status).toBe('stopped');
    const onlyStopped = (JSON.parse((await cli(['list', '--json', '--status', 'stopped', '--limit', '50'], taskQueue)).stdout) as Array<Record<string, unknown>>).map((r) => r.workflowId);
    expect(onlyStopped).toContain(id('stopped'));
    expect(onlyStopped).not.toContain(id('mcts'));
    const stoppedJson = JSON.parse((await cli(['result', id('stopped'), '--json'], taskQueue)).stdout) as { answer?: string; isSolution: boolean };
    expect(stoppedJson.isSolution).toBe(false);
    // The partial answer comes after the outcome, labelled as what it is (or its absence said).
    if (stoppedJson.answer !== undefined) expect(stoppedText.slice(2, 4)).toEqual([expect.stringMatching(/^best answer found \(score \d\.\d\d; not a solution\):$/), stoppedJson.answer]);
    else expect(stoppedText.slice(2, 4)).toEqual(['answer:', '(none: the best trajectory did not finish)']);
    const airetry = JSON.parse((await cli(['result', id('airetry'), '--json'], taskQueue)).stdout) as Record<string, number>;
    // Two samples per request: the samples are twice the model calls, and both are reported apart.
    expect(airetry.samples).toBe(2 * airetry.modelCalls);
  });
}, 300_000);

test('a session waiting for a tool approval says who must do what, in the CLI and the viewer', async () => {
  const storeDir = mkdtempSync(join(process.env.GROVE_TEST_DIR ?? '/tmp', 'truth-store-'));
  // A worker that serves save_note, the tool that waits for a person's approval.
  const taskQueue = uniqueTaskQueue('truth-approval');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), tools: [...exampleTools, noteTool(join(storeDir, 'notes.jsonl'))] });
  await worker.runUntil(async () => {
    const workflowId = `${taskQueue}-approval`;
    let told = '';
    const sending = runCli(['session', 'send', workflowId, 'Please save a note: call mom', '--input', 'examples/inputs/session.json'], { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue }, 90_000, { stderr: (all) => (told = all) });
    await until(() => told.includes('waiting for approval'), 120_000);
    expect(told).toMatch(new RegExp(`waiting for approval: save_note\\(.*call mom.*\\) \\(call [^,]+, turn 1\\) — run \`grove approve ${workflowId}\` \\(or add --reject\\)`));
    // grove progress and grove list say it too, with the live counts (not the run's last report).
    const progress = JSON.parse((await cli(['progress', workflowId], taskQueue)).stdout) as Record<string, unknown>;
    expect(progress.summary).toMatch(new RegExp(`^running: \\d+ model calls?, .* so far — waiting for approval of save_note \\(call [^,]+, turn 1\\): grove approve ${workflowId}$`));
    const listed = (JSON.parse((await cli(['list', '--json'], taskQueue)).stdout) as Array<Record<string, unknown>>).find((r) => r.workflowId === workflowId)!;
    expect([listed.modelCalls, listed.waiting]).toEqual([progress.modelCalls, expect.stringMatching(/^waiting for approval of save_note/)]);
    const table = (await cli(['list'], taskQueue)).stdout.split('\n').find((l) => l.startsWith(workflowId))!;
    expect(table).toMatch(/ session +waiting +\d+ .* waiting for approval of save_note .*: grove approve /);
    const server = await startUiServer({ source: new RunSource({ client: suite.env.client, store: new FileMessageStore(storeDir), temporalUiUrl: 'http://127.0.0.1:8233' }), port: 0 });
    try {
      const runs = (await (await fetch(new URL('api/runs', server.url))).json()) as { runs: Array<Record<string, unknown>> };
      expect(runs.runs.find((r) => r.workflowId === workflowId)).toMatchObject({ calls: progress.modelCalls, waiting: listed.waiting });
      const view = (await (await fetch(new URL(`api/runs/${workflowId}`, server.url))).json()) as { facts: [string, string][] };
      expect(view.facts[0]).toEqual(['waiting for approval', expect.stringMatching(new RegExp(`^save_note\\(.*\\): grove approve ${workflowId}$`))]);
    } finally {
      await server.close();
    }
    expect((await cli(['approve', workflowId], taskQueue)).code).toBe(0);
    const sent = await sending;
    expect([sent.code, sent.stdout]).toEqual([0, expect.stringContaining('call mom')]);
    await cli(['session', 'close', workflowId], taskQueue);
    // A message to the closed session is refused, not a new conversation that hides the old one.
    const late = await cli(['session', 'send', workflowId, 'hello again'], taskQueue);
    expect([late.code, late.stderr.trim()]).toEqual([2, expect.stringMatching(new RegExp(`^grove: session send: session ${workflowId} has ended \\(succeeded\\); a message would start a new conversation`))]);
  });
}, 180_000);

test('a cancelled run counts the call its model answered after the cancellation, and aborts the one it had not', async () => {
  const history = async (workflowId: string) => (await suite.env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const cancelAsked = async (workflowId: string) => (await history(workflowId)).some((e) => e.activityTaskCancelRequestedEventAttributes);
  const request = (workflowId: string) => suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`));

  // Answered: the worker heartbeats once a minute, so the call learns of the cancellation only after its answer is back.
  const slowBeat = uniqueTaskQueue('truth-cancel-answered');
  const answeredRun = `${slowBeat}-run`;
  await (await testWorker(suite.env, { taskQueue: slowBeat, llm: testLlmConfig(suite.model.baseURL, { heartbeatIntervalMs: 60_000 }) })).runUntil(async () => {
    suite.model.hold({ callKeyPrefix: `${answeredRun}/` });
    const handle = await groveClient(suite.env, slowBeat).start('agent', { ...quickstartInput({ seed: 2 }), llm: { heartbeatTimeoutMs: 180_000 } }, { workflowId: answeredRun });
    await until(() => suite.model.stats().held.some((key) => key.startsWith(`${answeredRun}/`)));
    await handle.cancel();
    await until(() => cancelAsked(answeredRun));
    suite.model.release();
    await expect(handle.result()).rejects.toThrow();
    expect(request(answeredRun).map((r) => r.outcome)).toEqual(['completed']);
    const listed = (JSON.parse((await cli(['list', '--json', '--limit', '50'], slowBeat)).stdout) as Array<Record<string, unknown>>).find((r) => r.workflowId === answeredRun)!;
    expect([listed.status, listed.modelCalls]).toEqual(['cancelled', 1]);
  });

  // Aborted: the worker heartbeats often, so the cancellation reaches the held call and aborts its request — the model answered nothing.
  const fastBeat = uniqueTaskQueue('truth-cancel-aborted');
  const abortedRun = `${fastBeat}-run`;
  await (await testWorker(suite.env, { taskQueue: fastBeat, llm: testLlmConfig(suite.model.baseURL) })).runUntil(async () => {
    suite.model.hold({ callKeyPrefix: `${abortedRun}/` });
    const handle = await groveClient(suite.env, fastBeat).start('agent', quickstartInput({ seed: 2 }), { workflowId: abortedRun });
    await until(() => suite.model.stats().held.some((key) => key.startsWith(`${abortedRun}/`)));
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow();
    await until(() => request(abortedRun).length > 0);
    suite.model.release();
    expect(request(abortedRun).map((r) => r.outcome)).toEqual(['aborted']);
    const shown = await cli(['show', abortedRun], fastBeat);
    expect(shown.stdout.split('\n')[0]).toBe(`${abortedRun} cancelled after 0 model calls`);
  });
}, 240_000);
