import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GroveCalls, GroveKind, GroveStatus } from '../../workflows/search-attributes';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { runCli } from '../support/run-cli';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';
import { LlmFailure } from '../../core/failures';

/**
 * Truthful status everywhere: every way a run can end is what `GroveStatus`, `grove list`,
 * `grove show` and `grove result` say, with the exit codes `grove run` / `result` document.
 */
const suite = integrationSuite('status');

const cli = (args: string[], taskQueue: string) => runCli(args, { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue }, 90_000);
const lines = (text: string) => text.trim().split('\n');
const completed = (workflowId: string) =>
  suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`) && r.outcome === 'completed').length;

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a search whose 4th model request never answers, and waits until it hangs there. */
async function stuckSearch(taskQueue: string, name: string, llm?: { heartbeatTimeoutMs: number }) {
  const workflowId = `${taskQueue}-${name}`;
  suite.model.addFault({ match: { callKeyPrefix: `${workflowId}/`, every: 4 }, action: { kind: 'hang' }, times: 1 });
  const handle = await groveClient(suite.env, taskQueue).start('agent', quickstartInput({ seed: 2, ...(llm ? { llm } : {}) }), { workflowId });
  await until(() => completed(workflowId) >= 3 && suite.model.stats().requests.length > 0 && suite.model.stats().total.inFlight > 0);
  return handle;
}

test('cancelled: the run records it with its final counters; show, result and list say so; exit code 1', async () => {
  await suite.withWorker(async (taskQueue) => {
    const handle = await stuckSearch(taskQueue, 'cancel');
    const cancel = await cli(['cancel', handle.workflowId], taskQueue);
    expect(cancel.stdout.trim()).toBe(`cancellation requested for ${handle.workflowId}`);
    await handle.result().catch(() => undefined);

    const { typedSearchAttributes: sa } = await handle.describe();
    expect(sa.get(GroveStatus)).toBe('cancelled');
    const calls = sa.get(GroveCalls)!;
    expect(calls).toBe(completed(handle.workflowId));

    const show = await cli(['show', handle.workflowId], taskQueue);
    expect(show.stdout.trim()).toBe(`${handle.workflowId} cancelled after ${calls} model calls`);
    const result = await cli(['result', handle.workflowId], taskQueue);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([`grove: ${handle.workflowId} cancelled after ${calls} model calls`]);
    const json = await cli(['result', handle.workflowId, '--json'], taskQueue);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ workflowId: handle.workflowId, status: 'cancelled', error: { message: 'a cancellation was requested' }, calls });
    const list = await cli(['list', '--status', 'cancelled', '--json', '--limit', '50'], taskQueue);
    expect(JSON.parse(list.stdout).map((r: { workflowId: string }) => r.workflowId)).toContain(handle.workflowId);
    // Nothing to verify is no pass: grove verify exits 1 and says the run did not complete.
    const verify = await cli(['verify', handle.workflowId], taskQueue);
    expect([verify.code, lines(verify.stdout)[0]]).toEqual([1, `${handle.workflowId} (agent): nothing was decided: the run did not complete`]);
    // A second cancellation is refused: the run has ended.
    const again = await cli(['cancel', handle.workflowId], taskQueue);
    expect([again.code, again.stderr.trim()]).toEqual([1, `grove: run ${handle.workflowId} has finished (cancelled): there is nothing to cancel (\`grove result ${handle.workflowId}\` prints how it ended)`]);
  });
});

/** What ended the hung call's activity, and whether that came after the run's cancellation was requested. */
async function hungCallEnding(handle: Awaited<ReturnType<typeof stuckSearch>>) {
  const events = (await handle.fetchHistory()).events ?? [];
  const asked = events.findIndex((e) => e.workflowExecutionCancelRequestedEventAttributes);
  const after = events.slice(asked + 1);
  return {
    asked: asked >= 0,
    canceled: after.some((e) => e.activityTaskCanceledEventAttributes),
    failedWith: after.map((e) => e.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type).filter(Boolean),
    status: (await handle.describe()).status.name,
  };
}

test('cancelled while a model call hangs: the cancellation reaches the call at its next heartbeat and the call is aborted', async () => {
  // A heartbeat timeout of 10 minutes, which Temporal's own throttle would turn into a heartbeat
  // a minute, and a call limit of 30 s: unless grove's worker sends heartbeats sooner, the call's
  // own timeout ends it first.
  await suite.withWorker(async (taskQueue) => {
    const handle = await stuckSearch(taskQueue, 'cancel-hung', { heartbeatTimeoutMs: 600_000 });
    await handle.cancel();
    await handle.result().catch(() => undefined);
    expect(await hungCallEnding(handle)).toEqual({ asked: true, canceled: true, failedWith: [], status: 'CANCELLED' });
    expect((await handle.describe()).typedSearchAttributes.get(GroveStatus)).toBe('cancelled');
  }, { timeoutMs: 30_000 });
});

test('cancelled while a model call hangs, and the call times out before the cancellation reaches it: the run still ends cancelled', async () => {
  // Heartbeats held back for 24 s (Temporal's own throttle: 0.8 × the 30 s heartbeat timeout) and
  // a call limit of 3 s: the call's own timeout ends it before any heartbeat can bring the
  // cancellation — the window where the run used to end failed with the call's error.
  const taskQueue = uniqueTaskQueue('status');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL, { timeoutMs: 3_000 }), workerOptions: { maxHeartbeatThrottleInterval: '60s' } });
  await worker.runUntil(async () => {
    const handle = await stuckSearch(taskQueue, 'cancel-wins');
    await handle.cancel();
    await handle.result().catch(() => undefined);
    // The call failed — it was not cancelled — after the cancellation was asked: the window was hit.
    // (Its timeout reads as GroveTimeout in a worker process; inside jest's VM the SDK cannot tell
    // the abort of its own timer from a broken connection, so it may read as GroveNetworkError.)
    expect(await hungCallEnding(handle)).toEqual({ asked: true, canceled: false, failedWith: [expect.stringMatching(new RegExp(`^(${LlmFailure.Timeout}|${LlmFailure.Network})$`))], status: 'CANCELLED' });
    const { typedSearchAttributes: sa } = await handle.describe();
    expect(sa.get(GroveStatus)).toBe('cancelled');
    const show = await cli(['show', handle.workflowId], taskQueue);
    expect(show.stdout.trim()).toBe(`${handle.workflowId} cancelled after ${sa.get(GroveCalls)} model calls`);
  });
});

test('terminated: the workflow cannot record it, so grove reads it from Temporal and says so', async () => {
  await suite.withWorker(async (taskQueue) => {
    const handle = await stuckSearch(taskQueue, 'terminate');
    await handle.terminate('an operator stopped it');
    expect((await handle.describe()).typedSearchAttributes.get(GroveStatus)).toBe('running'); // what the run last wrote

    const state = await groveClient(suite.env, taskQueue).state(handle.workflowId);
    expect(state).toMatchObject({ status: 'terminated', derived: true, reason: 'an operator stopped it' });
    const show = await cli(['show', handle.workflowId], taskQueue);
    expect(show.stdout.trim()).toMatch(
      new RegExp(`^${handle.workflowId} terminated after at least \\d+ model calls \\(its last report\\): an operator stopped it \\(Temporal execution status; the run could not record it itself\\)$`),
    );
    const list = await cli(['list', '--status', 'terminated', '--limit', '50'], taskQueue);
    const row = lines(list.stdout).find((l) => l.startsWith(handle.workflowId));
    expect(row).toMatch(/ agent:mcts +terminated\* /);
    expect(lines(list.stdout).pop()).toBe("* from Temporal's execution status (the run could not record it itself)");
    expect((await cli(['result', handle.workflowId], taskQueue)).code).toBe(1);
  });
});

test('invalid input from any Temporal client: GroveStatus failed with its kind; result --json says why; resume refuses', async () => {
  await suite.withWorker(async (taskQueue) => {
    // Started by name without grove's client: no search attributes, no validation before the start.
    const workflowId = `${taskQueue}-invalid`;
    const handle = await suite.env.client.workflow.start('airetry', { taskQueue, workflowId, args: [{ prompt: 'x', checks: [] }] });
    await handle.result().catch(() => undefined);
    const sa = (await handle.describe()).typedSearchAttributes;
    expect([sa.get(GroveKind), sa.get(GroveStatus)]).toEqual(['airetry', 'failed']);

    const json = await cli(['result', workflowId, '--json'], taskQueue);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      workflowId,
      status: 'failed',
      error: { message: 'invalid airetry input: checks: Too small: expected array to have >=1 items', type: 'GroveInvalidInput' },
    });
    const list = await cli(['list', '--status', 'failed', '--kind', 'airetry', '--json', '--limit', '50'], taskQueue);
    expect(JSON.parse(list.stdout).map((r: { workflowId: string }) => r.workflowId)).toContain(workflowId);
    const resume = await cli(['resume', workflowId], taskQueue);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain("failed on its input (invalid airetry input: checks: Too small: expected array to have >=1 items): a resume cannot change a run's input");
  });
});

test('unsolved: grove run and grove result exit 3; list and show say it finished without a solution', async () => {
  await suite.withWorker(async (taskQueue) => {
    const file = join(process.env.GROVE_TEST_DIR!, `${taskQueue}-unsolved.json`);
    writeFileSync(file, JSON.stringify(quickstartInput({ seed: 2, budget: { maxCalls: 4 } })));
    const workflowId = `${taskQueue}-unsolved`;
    const run = await cli(['run', 'agent', '--input', file, '--workflow-id', workflowId], taskQueue);
    expect(run.code).toBe(3);
    expect(run.stdout.split('\n')[0]).toMatch(/^completed: not solved \(judged by multiplier-judge\) — score \d\.\d\d; /);
    const result = await cli(['result', workflowId, '--json'], taskQueue);
    expect(result.code).toBe(3);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ workflowId, status: 'exhausted', isSolution: false, stop: { kind: 'maxCalls' } });
    const state = await groveClient(suite.env, taskQueue).state(workflowId);
    expect(state).toMatchObject({ status: 'exhausted', derived: false, calls: json.counters.llmCalls });

    const solved = await cli(['run', 'generate', '--prompt', 'Say hi!', '--model', 'echo'], taskQueue);
    expect(solved.code).toBe(0);
  });
});

test('a run kind without a tree gets a friendly message; progress of an ended run is its final record', async () => {
  await suite.withWorker(async (taskQueue) => {
    const { workflowId } = await groveClient(suite.env, taskQueue).run('generate', { prompt: 'Say hi!', model: 'echo' });
    const tree = await cli(['tree', workflowId], taskQueue);
    expect(tree.code).toBe(0);
    expect(tree.stdout.trim()).toBe(`${workflowId} is a generate run: it has no tree (\`grove show ${workflowId}\` prints its answer)`);
    const progress = await cli(['progress', workflowId], taskQueue);
    // A completed run's progress is its result's figures, led by the outcome grove result prints.
    expect(JSON.parse(progress.stdout)).toEqual({ workflowId, status: 'succeeded', summary: expect.stringMatching(/^completed: answered; nothing checked the answer — 1 model call, \d+ tokens$/), modelCalls: 1, tokens: expect.any(Number) });
  });
});
