import { sha256Hex } from '../../core/hash/sha256';
import type { WorkflowHandle } from '@temporalio/client';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HumanAction } from '../../core/schemas/steering';
import { SampleTree } from '../../core/tree/sample-tree';
import type { AgentNode } from '../../core/agents/agent-node';
import { until } from '../../workers/worker-process';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { integrationSuite } from '../support/integration-suite';
import { rejection } from '../support/rejection';
import { runCli } from '../support/run-cli';
import { groveClient } from '../support/temporal-env';

const suite = integrationSuite('steering');
/** An airetry run's counters; zeros until the run registered its queries (after its start-up activities). */
const progress = (handle: WorkflowHandle) =>
  handle.query<{ calls: number; retries: number }>('progress').catch(() => ({ calls: 0, retries: 0 }));
const requestsOf = (workflowId: string) => suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`));

test('airetry: a rewind by update replaces a sample while the run waits to retry; the checks judge the replacement', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    // Retries wait 1.5 s (a durable timer): time enough to look at the tree and steer.
    const handle = await grove.start('airetry', colorGameInput({ seed: 5, config: { nSamples: 2, retryDelayMs: 1500 } }));
    await until(async () => (await progress(handle)).calls >= 2, 20_000, 'the first samples');
    const rewound = (await grove.steer('ana').rewind(handle.workflowId, { nodeId: 1, content: 'yellow' })) as { activeSampleId: number; abandoned: number[] };
    const result = await handle.result();
    expect(result.output).toBe('yellow');
    expect(result.success).toBe(true);
    expect(result.activeSampleId).toBe(rewound.activeSampleId);
    expect(result.actions).toEqual([expect.objectContaining({ by: 'ana', action: 'rewind', target: 'sample 1', detail: 'yellow' })]);
    const tree = SampleTree.fromJSON(result.tree);
    expect(tree.node(rewound.activeSampleId).parent).toBe(0);
    for (const id of rewound.abandoned) expect(tree.node(id).abandoned).toBe(true);
    // A finished run is refused, saying so.
    const late = await rejection(grove.steer('ana').feedback(handle.workflowId, { text: 'too late' }));
    expect((late as Error).message).toMatch(/has finished \(completed\): feedback needs a running run/);
  });
});

test('airetry: stop ends the retries with the best sample so far; later updates are refused', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const input = colorGameInput({ config: { nSamples: 2, retryDelayMs: 1000, maxRetries: 20 }, checks: [{ kind: 'equals', value: 'purple' }, { kind: 'lowercase' }] });
    const handle = await grove.start('airetry', input);
    await until(async () => (await progress(handle)).retries >= 1, 20_000, 'a first retry');
    await grove.steer('bob').stop(handle.workflowId, { reason: 'good enough' });
    // Refused either way: by the stopped run's validator, or — if it already ended — by the client.
    const refused = await rejection(grove.steer('bob').feedback(handle.workflowId, { text: 'x' }));
    expect((refused as Error).message).toMatch(/^(feedback rejected: the call was stopped by bob|run \S+ has finished \(completed\): feedback needs a running run)/);
    const result = await handle.result();
    expect(result.success).toBe(false);
    expect(result.stopped).toEqual({ by: 'bob', reason: 'good enough' });
    // No more samples after the stop; the deterministic checks are still said of the answer it returns.
    const answer = String(result.output);
    const evidence = { sampleId: result.activeSampleId, outputSha256: sha256Hex(answer) };
    expect(result.checks).toEqual([
      { name: 'equals#0', kind: 'equals', passed: false, ...evidence },
      { name: 'lowercase#1', kind: 'lowercase', passed: answer.trim() === answer.trim().toLowerCase(), ...evidence },
    ]);
    expect(result.retries).toBeLessThan(20);
  });
});

test('agent: rewind (from the command line), feedback and stop on a running search; every action is logged', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    // A player that always errs never solves it, and every model call takes 200 ms: the search runs until stopped.
    const id = `${taskQueue}-search`;
    suite.model.addFault({ match: { callKeyPrefix: `${id}/` }, action: { kind: 'latency', ms: 200 }, times: 0 });
    const handle = await grove.start('agent', quickstartInput({ model: 'multiplier?p=1', budget: { maxCalls: 400 }, maxRollouts: 200 }), { workflowId: id });
    const env = { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue, GROVE_ACTOR: 'carol' };
    const nodes = () => handle.query<{ nodes: number }>('progress').then((p) => p.nodes, () => 0); // queries exist once the search started
    await until(async () => (await nodes()) >= 4, 30_000, 'a few nodes');

    const bad = await rejection(grove.steer('carol').rewind(id, { nodeId: 999 }));
    expect((bad as Error).message).toMatch(/^rewind rejected: there is no node n999 \(the tree has n0 to n\d+\)$/);
    const rewind = await runCli(['rewind', id, '--node', '0', '--feedback', 'Use the multiply tool for every step.', '--json'], env);
    expect(rewind.code).toBe(0);
    const rewound = JSON.parse(rewind.stdout) as { resumeFrom: number; abandoned: number[] };
    expect(rewound.resumeFrom).toBe(0);
    expect(rewound.abandoned.length).toBeGreaterThanOrEqual(3);
    expect(await grove.steer('carol').feedback(id, { text: 'Check each product.' })).toEqual({ nodeId: 0 });
    await until(async () => (await nodes()) > Math.max(...rewound.abandoned) + 1, 30_000, 'new nodes');
    await grove.steer('carol').stop(id, { reason: 'enough' });

    const result = await handle.result();
    expect(result.stop).toEqual({ kind: 'stopped', message: 'stopped by carol: enough' });
    expect(result.actions!.map((a: HumanAction) => [a.by, a.action, a.target])).toEqual([
      ['carol', 'rewind', 'n0'],
      ['carol', 'feedback', 'n0'],
      ['carol', 'stop', undefined],
    ]);
    const tree = SampleTree.fromJSON<AgentNode>(result.tree);
    expect(rewound.abandoned.every((n) => tree.node(n).abandoned)).toBe(true);
    expect(tree.root.feedback).toBe('Use the multiply tool for every step.\nCheck each product.');
    expect(tree.root.children.every((c) => c > Math.max(...rewound.abandoned))).toBe(true);
    expect(suite.model.stats().callKeys.repeatedAfterCompletion).toBe(0);
    expect(requestsOf(id).length).toBeGreaterThan(0);

    const actions = await runCli(['actions', id], env);
    expect(actions.stdout.trim().split('\n').map((l) => l.replace(/^\d+\. \S+ {2}/, ''))).toEqual([
      'carol  rewind n0: Use the multiply tool for every step.',
      'carol  feedback n0: Check each product.',
      'carol  stop: enough',
    ]);
  });
}, 90_000);

test('a session from the command line: send (starting it), rewind, close with the transcript', async () => {
  await suite.withWorker(async (taskQueue) => {
    const env = { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue, GROVE_ACTOR: 'dan' };
    const id = `${taskQueue}-cli`;
    const file = join(mkdtempSync(join(tmpdir(), 'grove-session-')), 'session.json');
    writeFileSync(file, JSON.stringify({ model: 'concierge' }));
    const first = await runCli(['session', 'send', id, 'What is the capital of France?', '--input', file], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Good question: "What is the capital of France\?"/);
    const rewind = await runCli(['rewind', id, '--message=-1', '--content', 'Paris.'], env);
    expect(rewind.stdout.trim()).toBe('rewound to assistant message 1 (#2): replaced by #3; 1 message abandoned (kept in the tree)');
    const close = await runCli(['session', 'close', id], env);
    expect(close.stdout).toContain('[assistant] Paris.');
    // Outcome first, worded as `grove result` words it.
    expect(close.stdout.split('\n')[0]).toMatch(/^closed by dan: 1 turn — 1 model call, (\d+ tool runs?, )?[\d,]+ tokens?; 1 rewind$/);
  });
}, 90_000);
