import { WorkflowFailedError } from '@temporalio/client';
import { describeFailure } from '../../client/cli/describe-failure';
import { multiplicationPlan } from '../../model-server';
import type { AgentInput } from '../../core/agents/agent-options';
import { QUICKSTART, quickstartInput, searchInProcess } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { groveClient, uniqueTaskQueue } from '../support/temporal-env';
import { until } from '../../workers/worker-process';

const suite = integrationSuite('agent');
const withWorker = suite.withWorker;

const ANSWER = multiplicationPlan().answer;
const input = quickstartInput;

test.each(['mcts', 'astar', 'greedy', 'beam', 'cot'] as const)('%s solves the Saplings quickstart as a durable workflow', async (algorithm) => {
  const { result, description } = await withWorker(async (tq) => {
    const result = await groveClient(suite.env, tq).run('agent', input({ algorithm }));
    return { result, description: await suite.env.client.workflow.getHandle(result.workflowId).describe() };
  });
  expect(result).toMatchObject({ kind: 'agent', algorithm, isSolution: true, score: 1, stop: { kind: 'solved' } });
  expect(Number(result.answer)).toBeCloseTo(ANSWER, 0);
  expect(result.messages[0]).toEqual({ role: 'user', content: QUICKSTART });
  expect(result.treeText.split('\n')[0]).toBe('n0 prompt' + (algorithm === 'mcts' ? result.treeText.split('\n')[0].slice(9) : ''));
  expect(description.searchAttributes).toMatchObject({ GroveKind: [`agent:${algorithm}`], GroveStatus: ['succeeded'], GroveBestScore: [1] });
});

test.each<[string, Partial<AgentInput>]>([
  ['no budget', {}],
  ['a 15-call budget (planned width: the last steps unevaluated)', { budget: { maxCalls: 15 }, seed: 1 }],
])('a durable search makes the same decisions as the same search in process (%s)', async (_label, over) => {
  const spec = input({ model: 'multiplier?p=0.2&guess=0.3', ...over });
  const durable = await withWorker((tq) => groveClient(suite.env, tq).run('agent', spec));
  const local = await searchInProcess(spec);
  if (local.handover) throw new Error('unexpected handover');
  expect(durable.tree).toEqual(local.state.tree.toJSON());
  expect(durable.messages).toEqual(local.messages);
  if (over.budget) {
    expect(durable.counters.llmCalls).toBeLessThanOrEqual(15);
    expect(local.state.tree.preorder().some((n) => n.parent !== null && n.score === undefined)).toBe(true);
  }
});

test('tools declared fast run as local activities: recorded as markers, never scheduled on a task queue', async () => {
  const { result, history } = await withWorker(async (tq) => {
    const handle = await groveClient(suite.env, tq).start('agent', input({ model: 'multiplier?p=0.2&guess=0.3' }));
    return { result: await handle.result(), history: await handle.fetchHistory() };
  });
  expect(result.isSolution).toBe(true);
  const events = history.events ?? [];
  const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes] : []));
  expect(scheduled.map((a) => a.activityType?.name)).toContain('llmChat');
  // Only a call to a tool nobody declared fast (here: a misspelled name the worker answers with
  // an error) still goes through the task queue.
  const regularTools = scheduled
    .filter((a) => a.activityType?.name === 'groveRunTool')
    .map((a) => JSON.parse(Buffer.from(a.input!.payloads![0]!.data!).toString()).call.function.name as string);
  for (const name of regularTools) expect(['multiply', 'final_answer']).not.toContain(name);
  const localRuns = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
  // Every tool message in the best trajectory came from one of those local runs.
  const toolMessages = result.messages.filter((m: { role: string }) => m.role === 'tool').length;
  expect(toolMessages).toBeGreaterThan(0);
  expect(localRuns.length).toBeGreaterThanOrEqual(toolMessages);
});

test('a custom evaluator declared fast runs as a local activity, with the same decisions as in process', async () => {
  const spec = input({ model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'multiplication-checker' } });
  const { result, history } = await withWorker(async (tq) => {
    const handle = await groveClient(suite.env, tq).start('agent', spec);
    return { result: await handle.result(), history: await handle.fetchHistory() };
  });
  const local = await searchInProcess(spec);
  if (local.handover) throw new Error('unexpected handover');
  expect(result.tree).toEqual(local.state.tree.toJSON());
  const events = history.events ?? [];
  const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes?.activityType?.name ? [e.activityTaskScheduledEventAttributes.activityType.name] : []));
  expect(scheduled).toContain('llmChat');
  expect(scheduled).not.toContain('groveEvaluate');
  const summaries = events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .flatMap((e) => (e.userMetadata?.summary?.data ? [JSON.parse(Buffer.from(e.userMetadata.summary.data).toString()) as string] : []));
  expect(summaries.filter((s) => s === 'describe evaluator multiplication-checker')).toHaveLength(1);
  expect(summaries.filter((s) => s.startsWith('evaluate n')).length).toBe(result.counters.evaluations);
});

test('parallel MCTS (3 rollouts in flight) makes the same decisions durably as in process', async () => {
  const spec = input({ model: 'multiplier?p=0.4&guess=0.4', parallelism: 3, budget: { maxCalls: 40 } });
  const durable = await withWorker((tq) => groveClient(suite.env, tq).run('agent', spec));
  const local = await searchInProcess(spec);
  if (local.handover) throw new Error('unexpected handover');
  expect(durable.tree).toEqual(local.state.tree.toJSON());
  expect(durable.counters.llmCalls).toBeLessThanOrEqual(40);
});

test('MCTS recovers where greedy does not', async () => {
  const spec = input({ model: 'multiplier?p=0.2&guess=0.3' });
  const [mcts, greedy] = await withWorker((tq) =>
    Promise.all([groveClient(suite.env, tq).run('agent', spec), groveClient(suite.env, tq).run('agent', { ...spec, algorithm: 'greedy' })]),
  );
  expect(mcts.isSolution).toBe(true);
  expect(greedy.isSolution).toBe(false);
});

test('a judge that never gives a usable score: each evaluation fails (5/10 by rule, never a solution) and the run fails, naming the evaluator', async () => {
  // The color guesser answers "I think it is ...": no JSON, no score — not one evaluation the search could go by.
  const { failed, state } = await withWorker(async (tq) => {
    const grove = groveClient(suite.env, tq);
    const handle = await grove.start('agent', input({ algorithm: 'greedy', evaluator: { name: 'llm', model: 'color-guesser' }, maxDepth: 2 }));
    return { failed: await handle.result().catch((e: Error) => e), state: await grove.state(handle.workflowId) };
  });
  expect(state).toMatchObject({ status: 'failed', failureType: 'GroveEvaluationsFailed' });
  expect(String(((failed as Error).cause as Error | undefined)?.message)).toBe('every evaluation of this run failed (2 of 2): evaluator "llm": the judge gave no usable score (no score found)'); // at its end: a short search
});

test('the live tree and progress can be queried; the UI gets one summary per activity', async () => {
  const { treeText, progress, metadata, history } = await withWorker(async (tq) => {
    const handle = await groveClient(suite.env, tq).start('agent', input({ algorithm: 'astar' }));
    await handle.result();
    return {
      treeText: await handle.query<string>('treeText'),
      progress: await handle.query<{ nodes: number; counters: { llmCalls: number } }>('progress'),
      metadata: await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata'),
      history: await handle.fetchHistory(),
    };
  });
  expect(metadata.currentDetails).toMatch(/^\*\*astar\*\* — step \d+, \d+ nodes, \d+ model calls, best score 1\.00/);
  expect(treeText.split('\n')[0]).toBe('n0 prompt');
  expect(treeText).toMatch(/[├└]─ n1 d1 score [\d.]+ → multiply\(\{"a":9418\.343,"b":8\.11\}\)/);
  expect(progress.nodes).toBeGreaterThan(5);
  // Regular activities and local ones (fast tools, recorded as markers) alike.
  const summaries = (history.events ?? [])
    .filter((e) => e.activityTaskScheduledEventAttributes || e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map((e) => e.userMetadata?.summary?.data)
    .flatMap((d) => (d ? [JSON.parse(Buffer.from(d).toString()) as string] : [])); // the operator-policy check has none
  expect(summaries.slice(0, 2)).toEqual(["read this worker's registry", 'describe tools: multiply, final_answer']);
  expect(summaries).toContain('expand n0 (depth 0): 3 candidates');
  expect(summaries.some((s) => /^tool multiply for n0 candidate 1\/\d$/.test(s))).toBe(true);
  expect(summaries.some((s) => /^evaluate n0 candidate 1\/\d: multiply\(/.test(s))).toBe(true);
});

test('a tool name no worker knows fails the run at once, naming the tools it has', async () => {
  const err = await withWorker((tq) => groveClient(suite.env, tq).run('agent', input({ tools: ['multiply', 'web_search'] })).catch((e: unknown) => e));
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect(describeFailure(err)).toMatch(/^unknown tool web_search: no worker on this task queue serves it \(worker \S+ has tools final_answer, multiply, run_code; evaluators code-tests, multiplication-checker\)/);
});

test('invalid agent options are rejected before start, naming the field', async () => {
  const grove = groveClient(suite.env, uniqueTaskQueue('agent-invalid'));
  await expect(grove.start('agent', input({ bFactor: 0 }))).rejects.toThrow(/^invalid agent input: bFactor: Too small/);
  await expect(grove.start('agent', input({ algorithm: 'bfs' as never }))).rejects.toThrow(/^invalid agent input: algorithm: Invalid option/);
  await expect(grove.start('agent', input({ budget: { maxCalls: -3 } }))).rejects.toThrow(/^invalid agent input: budget\.maxCalls: Too small/);
  await expect(grove.start('agent', input({ tools: ['no spaces allowed'] }))).rejects.toThrow(/tools\[0\]: tool names are 1-64 letters/);
  await expect(grove.start('agent', input({ toolChoice: 'none' as never }))).rejects.toThrow(/toolChoice/);
});

test('cancelling a search aborts its in-flight model call and ends the run as cancelled', async () => {
  const { CancelledFailure } = await import('@temporalio/client');
  const outcome = await withWorker(async (tq) => {
    const grove = groveClient(suite.env, tq);
    const workflowId = uniqueTaskQueue('cancel');
    suite.model.addFault({ match: { callKeyPrefix: `${workflowId}/`, model: 'multiplier' }, action: { kind: 'hang' } });
    const handle = await grove.start('agent', input({ llm: { heartbeatTimeoutMs: 1000 } }), { workflowId });
    const before = suite.model.stats().total.aborted;
    await until(() => suite.model.stats().total.inFlight > 0);
    const progress = await grove.progress(handle.workflowId);
    await grove.cancel(handle.workflowId);
    const err = await handle.result().catch((e: unknown) => e);
    await until(() => suite.model.stats().total.aborted > before);
    return { err, progress, status: (await handle.describe()).status.name };
  });
  expect(outcome.progress).toMatchObject({ algorithm: 'mcts', nodes: 1 });
  expect(outcome.status).toBe('CANCELLED');
  expect((outcome.err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
});
