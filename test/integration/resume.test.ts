import { replayRun } from '../../client/replay/replay';
import { AgentResultSchema } from '../../core/agents/agent-result';
import { AiretryResultSchema } from '../../core/airetry/airetry-input';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { integrationSuite } from '../support/integration-suite';
import { runCli } from '../support/run-cli';
import { groveClient } from '../support/temporal-env';

/**
 * `grove resume`: a run that failed on a provider error after many successful calls is
 * continued from just before its first failed step, and pays for none of the calls that had
 * succeeded; it ends exactly as an uninterrupted run does.
 */
const suite = integrationSuite('resume');

const completedOf = (workflowId: string) =>
  suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`) && r.outcome === 'completed');
/** Completed requests of this run whose call key had completed before: calls paid twice. */
const paidTwice = (workflowId: string) => suite.model.stats().callKeys.repeated.filter((k) => k.startsWith(`${workflowId}/`));

const cli = (args: string[], taskQueue: string) => runCli(args, { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue }, 120_000);

/** A 400 for the `n`-th model request of a run: a non-retryable provider error, once. */
const failRequest = (workflowId: string, n: number) =>
  suite.model.addFault({ match: { callKeyPrefix: `${workflowId}/`, every: n }, action: { kind: 'status', status: 400, message: 'injected: bad request' }, times: 1 });

test.each([
  ['agent (MCTS)', 'agent', () => quickstartInput({ model: 'multiplier?p=0.2&guess=0.3', seed: 4 }), AgentResultSchema],
  ['airetry', 'airetry', () => colorGameInput({ seed: 7, apiKwargs: {}, config: { nSamples: 3 } }), AiretryResultSchema],
] as const)('%s: fails on a provider 400 after 10+ paid calls; grove resume finishes it paying for none of them again', async (_name, kind, makeInput, resultSchema) => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const baseline = await grove.run(kind, makeInput() as never);
    const baselineCalls = completedOf(baseline.workflowId).length;
    expect(baselineCalls).toBeGreaterThanOrEqual(12);

    const workflowId = `${taskQueue}-failing`;
    failRequest(workflowId, 11);
    const handle = await grove.start(kind, makeInput() as never, { workflowId });
    const failed = await grove.outcome(handle.workflowId);
    expect(failed.state).toMatchObject({ status: 'failed', failureType: 'GroveBadRequest', derived: false });
    const paidBeforeResume = completedOf(workflowId).length;
    expect(paidBeforeResume).toBeGreaterThanOrEqual(10);

    const resumed = await cli(['resume', workflowId, '--json'], taskQueue);
    expect(resumed.stderr).toBe('');
    // A solution only the LLM judge vouches for is not a verified success (exit 4); the checks of airetry are (0).
    expect(resumed.code).toBe(kind === 'agent' ? 4 : 0);
    const result = resultSchema.parse(JSON.parse(resumed.stdout));
    // The same end as the uninterrupted run, and every call that had succeeded was not paid again.
    expect(result.tree).toEqual(baseline.tree);
    expect(completedOf(workflowId).length).toBe(baselineCalls);
    expect(paidTwice(workflowId)).toEqual([]);
    const state = await grove.state(workflowId);
    expect(state).toMatchObject({ status: 'succeeded', groveStatus: 'succeeded' });
    // The resumed run's history replays as it ran (a replayer runs it under its original run id).
    const replay = await replayRun(suite.env.client, workflowId, { workflowBundle: { codePath: suite.env.bundlePath } });
    expect(replay).toMatchObject({ ok: true });
    process.stderr.write(`resume ${kind}: ${paidBeforeResume} calls paid before the failure, ${completedOf(workflowId).length - paidBeforeResume} after the resume; a full rerun pays ${baselineCalls}\n`);
  });
}, 120_000);

test('a resume can change the model: a run that failed on an unknown model finishes with the right one', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const handle = await grove.start('generate', { prompt: 'Say hi!', model: 'ech0' }, { workflowId: `${taskQueue}-typo` });
    const failed = await grove.outcome(handle.workflowId);
    expect(failed.state).toMatchObject({ status: 'failed', failureType: 'GroveModelNotFound' });

    const wrongOption = await cli(['resume', handle.workflowId, '--budget', '5'], taskQueue);
    expect(wrongOption.code).toBe(2);
    expect(wrongOption.stderr.trim()).toBe(`grove: resume: cannot resume ${handle.workflowId}: a generate run cannot change budget on resume`);

    const resumed = await cli(['resume', handle.workflowId, '--model', 'echo'], taskQueue);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.split('\n').slice(0, 4)).toEqual([expect.stringMatching(/^completed: answered; nothing checked the answer — 1 model call, \d+ tokens$/), '', 'answer:', 'Echo: Say hi!']);
    expect(resumed.stderr).toMatch(new RegExp(`^grove: ${handle.workflowId}: resumed from event \\d+, before the first failed step \\(llmChat, event \\d+: model "ech0" was not found`));
  });
});

test('a cancelled search resumes where it was cancelled, with a bigger budget', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const input = quickstartInput({ model: 'multiplier?p=0.2&guess=0.3', seed: 4, budget: { maxCalls: 60 } });
    const baseline = await grove.run('agent', input);
    const workflowId = `${taskQueue}-cancelled`;
    // Hang the 6th request so that the cancellation finds calls in flight.
    suite.model.addFault({ match: { callKeyPrefix: `${workflowId}/`, every: 6 }, action: { kind: 'hang' }, times: 1 });
    const handle = await grove.start('agent', { ...input, budget: { maxCalls: 40 } }, { workflowId });
    await until(async () => suite.model.stats().total.inFlight > 0 && completedOf(workflowId).length >= 5);
    await grove.cancel(workflowId);
    const cancelled = await grove.outcome(handle.workflowId);
    expect(cancelled.state).toMatchObject({ status: 'cancelled', groveStatus: 'cancelled' });
    expect(cancelled.state.calls).toBeGreaterThanOrEqual(5);

    const resumed = await grove.resume(workflowId, { overrides: { budget: { maxCalls: 60 } } });
    expect(resumed.plan.ending).toBe('cancelled');
    const done = await grove.outcome(workflowId);
    expect((done.result as { tree: unknown }).tree).toEqual(baseline.tree);
    expect(paidTwice(workflowId)).toEqual([]);
    expect(await replayRun(suite.env.client, workflowId, { workflowBundle: { codePath: suite.env.bundlePath } })).toMatchObject({ ok: true });
  });
});

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
