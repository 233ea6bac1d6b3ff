import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineEvaluator } from '../../activities/evaluators';
import { checkMultiplication, multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import type { ChatPolicy } from '../../model-server';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { runCli } from '../support/run-cli';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';
import colorGame from '../../examples/inputs/color-game.json';

/**
 * Verdicts through a real worker: an airetry run claims only what holds of the answer it
 * returns, and `grove verify` recomputes it (and catches a forged result); an agent judged by
 * the model that answered says so and exits 4; judges and custom evaluators that return
 * impossible scores fail evaluations, not runs, and never make a run "solved".
 */

/** Answers the task, and grades any trajectory 10/10 when asked to judge: the model judges itself. */
const selfJudge: ChatPolicy = {
  name: 'self-judge',
  respond: (req, ctx) => {
    const judging = (req.response_format as { type?: string } | undefined)?.type === 'json_schema';
    const content = judging ? '{"reasoning":"Looks right to me.","score":10}' : 'The answer is 42.';
    return Array.from({ length: ctx.n }, () => ({ content }));
  },
};

/** A judge whose score JSON reads as Infinity. */
const infiniteJudge: ChatPolicy = {
  name: 'infinite-judge',
  respond: (_req, ctx) => Array.from({ length: ctx.n }, () => ({ content: '{"reasoning":"Perfect.","score":1e999}' })),
};

const suite = integrationSuite('verdicts', { policies: [selfJudge, infiniteJudge] });
const env = (taskQueue: string) => ({ TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue });
const cli = (args: string[], taskQueue: string) => runCli(args, env(taskQueue), 90_000);
const inputFile = (name: string, input: unknown) => {
  const file = join(process.env.GROVE_TEST_DIR!, `${name}.json`);
  writeFileSync(file, JSON.stringify(input));
  return file;
};

test('the color game with another system prompt: swept until the returned answer passes every check; grove run says who decided; grove verify recomputes it', async () => {
  await suite.withWorker(async (taskQueue) => {
    const input = { ...colorGame, system: 'Act as a helpful AI assistant (run s4a-airetry-010)' };
    const workflowId = `${taskQueue}-color`;
    const run = await cli(['run', 'airetry', '--input', inputFile(workflowId, input), '--workflow-id', workflowId, '--json'], taskQueue);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    // Before the fix this run returned "Yellow" and claimed lowercase#1 passed.
    expect(result.output).toBe('yellow');
    expect(result.success).toBe(true);
    expect(result.verdict).toEqual({ by: 'checks', verified: true });
    for (const check of result.checks) expect(check).toMatchObject({ passed: true, sampleId: result.activeSampleId, outputSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const text = await cli(['result', workflowId], taskQueue);
    // Outcome first: who decided, then what it took (model calls, the samples they drew, retries).
    expect(text.stdout.split('\n')[0]).toBe(`completed: all checks passed (by deterministic checks) — ${result.modelCalls} model calls (${result.calls} samples), ${result.usage.totalTokens.toLocaleString("en-US")} tokens; ${result.retries} retries`);
    const verify = await cli(['verify', workflowId], taskQueue);
    expect(verify.code).toBe(0);
    const lines = verify.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${workflowId} (airetry): decided by deterministic checks`);
    expect(lines).toContain(`  ✓ lowercase#1 passed: lowercase on sample ${result.activeSampleId}'s answer "yellow": passes`);
    expect(lines[lines.length - 1]).toBe("the run's claims hold (7 recomputed)");
    const report = await groveClient(suite.env, taskQueue).verify(workflowId);
    expect(report).toMatchObject({ holds: true, kind: 'airetry', verdict: { by: 'checks', verified: true } });
  });
});

test('grove verify catches a forged result: a run that claims a check its answer fails exits 1, naming the claim', async () => {
  const taskQueue = uniqueTaskQueue('verdicts-forged');
  const worker = await testWorker(suite.env, {
    taskQueue,
    llm: testLlmConfig(suite.model.baseURL),
    workflowBundle: undefined,
    workflowsPath: require.resolve('../support/forged-workflows'),
  });
  await worker.runUntil(async () => {
    const workflowId = `${taskQueue}-forged`;
    await groveClient(suite.env, taskQueue).run('airetry', { prompt: 'Say hi!', model: 'echo', config: { maxCalls: 2 }, checks: [{ kind: 'maxWords', max: 1 }] }, { workflowId });
    const verify = await cli(['verify', workflowId], taskQueue);
    expect(verify.code).toBe(1);
    const lines = verify.stdout.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}✗ maxWords#0 passed: maxWords on sample \d+'s answer "Echo: .*": fails$/));
    expect(lines[lines.length - 1]).toBe(`2 claims do not hold: maxWords#0 passed; success: true (${lines.length - 2} recomputed)`);
  });
}, 120_000);

test('an agent judged by the model that answered: "judged solved by self-judge, the model that wrote it; not verified", exit code 4, in run, result and show', async () => {
  await suite.withWorker(async (taskQueue) => {
    const workflowId = `${taskQueue}-self`;
    const input = { algorithm: 'greedy', prompt: 'What is 6 times 7?', tools: ['final_answer'], model: 'self-judge', evaluator: { name: 'llm' }, budget: { maxCalls: 10 } };
    const run = await cli(['run', 'agent', '--input', inputFile(workflowId, input), '--workflow-id', workflowId], taskQueue);
    expect(run.code).toBe(4);
    expect(run.stdout.split('\n')[0]).toMatch(/^completed: judged solved by self-judge, the model that wrote it; not verified — score 1\.00; /);
    expect(run.stdout).not.toMatch(/^(completed: )?solved/m);
    const json = JSON.parse((await cli(['result', workflowId, '--json'], taskQueue)).stdout);
    expect(json).toMatchObject({ isSolution: true, verdict: { by: 'judge', model: 'self-judge', selfJudged: true, verified: false } });
    expect((await cli(['result', workflowId], taskQueue)).code).toBe(4);
    const show = await cli(['show', workflowId], taskQueue);
    expect(show.stdout.trim().split('\n')[0]).toMatch(/^completed: judged solved by self-judge, the model that wrote it; not verified — /);
    const verify = await cli(['verify', workflowId], taskQueue);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain("  ? score 1 (the evaluation): judged by self-judge, the model that wrote the answer: a model's opinion, not recomputable");
  });
});

test('a judge answering "score": 1e999 never makes a run solved: every evaluation failed, the run fails naming the evaluator', async () => {
  await suite.withWorker(async (taskQueue) => {
    const workflowId = `${taskQueue}-infinite`;
    const input = quickstartInput({ algorithm: 'mcts', model: 'multiplier', evaluator: { name: 'llm', model: 'infinite-judge' }, budget: { maxCalls: 30 } });
    const run = await cli(['run', 'agent', '--input', inputFile(workflowId, input), '--workflow-id', workflowId], taskQueue);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('every evaluation of this run failed (3 of 3): evaluator "llm": the judge gave no usable score (score Infinity is not a finite number in [0, 10])');
    const state = await groveClient(suite.env, taskQueue).state(workflowId);
    expect(state).toMatchObject({ status: 'failed', failureType: 'GroveEvaluationsFailed' });
  });
});

test('a custom evaluator returning NaN now and then fails those evaluations only; one that always does fails the run, naming it', async () => {
  let calls = 0;
  const flaky = defineEvaluator({ name: 'flaky-checker', run: (trajectory) => (calls++ % 2 === 0 ? { score: NaN } : checkMultiplication(trajectory)) });
  const broken = defineEvaluator({ name: 'broken-checker', run: () => ({ score: Infinity }) });
  const taskQueue = uniqueTaskQueue('verdicts-custom');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), evaluators: [multiplicationChecker, flaky, broken] });
  await worker.runUntil(async () => {
    const grove = groveClient(suite.env, taskQueue);
    const result = await grove.run('agent', quickstartInput({ algorithm: 'mcts', evaluator: { name: 'flaky-checker' }, seed: 1, budget: { maxCalls: 60 } }));
    expect(result.verdict).toEqual({ by: 'evaluator', evaluator: 'flaky-checker', verified: true });
    expect(result.counters.evaluationFailures).toBeGreaterThan(0);
    const treeNodes = (result.tree as { nodes: [number, number | null, { evaluationFailed?: string }, ...unknown[]][] }).nodes;
    const failed = treeNodes.filter((n) => n[2].evaluationFailed !== undefined);
    expect(failed.length).toBe(result.counters.evaluationFailures);
    expect(failed[0]![2].evaluationFailed).toBe('evaluator "flaky-checker" returned score NaN: a score must be a number in [0, 1]');
    expect(failed.map((n) => n[0])).not.toContain(result.isSolution ? result.bestNodeId : -1);

    const failing = await grove.start('agent', quickstartInput({ algorithm: 'mcts', evaluator: { name: 'broken-checker' }, budget: { maxCalls: 60 } }));
    const err = await failing.result().catch((e: Error) => e);
    expect(String(((err as Error).cause as Error | undefined)?.message)).toMatch(/^every evaluation of this run failed \(3 of 3\): evaluator "broken-checker": evaluator "broken-checker" returned score Infinity/);
    expect(await grove.state(failing.workflowId)).toMatchObject({ status: 'failed', failureType: 'GroveEvaluationsFailed' });
  });
}, 120_000);
