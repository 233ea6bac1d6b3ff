import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import type { AgentNode } from '../../core/agents/agent-node';
import type { ConversationDelta } from '../../core/conversation/delta';
import { SampleTree } from '../../core/tree/sample-tree';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { integrationSuite } from '../support/integration-suite';
import { runCli } from '../support/run-cli';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * `grove fork`: a new run continues another run's tree from one of its nodes, carrying the path
 * to it — every call paid for on that path is reused, not paid again.
 */
const suite = integrationSuite('fork');

const completed = (workflowId: string) =>
  suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`) && r.outcome === 'completed').length;

/** A store that never finds anything it was given: a wiped folder, or one on another host. */
class AmnesicStore extends MemoryMessageStore {
  override async get() {
    return undefined;
  }
}

test('a fork of a greedy search at depth 2 pays only for the steps below the node, and ends as its parent did', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const parent = await grove.run('agent', quickstartInput({ algorithm: 'greedy', seed: 3 }));
    expect(parent.isSolution).toBe(true);
    const tree = SampleTree.fromJSON<AgentNode>(parent.tree);
    const path = tree.pathFromRoot(parent.bestNodeId);
    expect(path.length).toBeGreaterThan(3);
    const node = path[2];
    // What the path to the node cost the parent: each expansion above it (one call) and the evaluation of each child.
    const pathCalls = path.slice(0, 2).reduce((sum, n) => sum + 1 + n.children.length, 0);

    const forked = await runCli(['fork', parent.workflowId, '--node', String(node.id), '--json'], { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue });
    expect(forked.code).toBe(4); // solved as the LLM judge says: not verified
    const result = JSON.parse(forked.stdout);
    expect(result.answer).toBe(parent.answer);
    expect(result.isSolution).toBe(true);
    expect(completed(result.workflowId)).toBe(completed(parent.workflowId) - pathCalls);
    expect(result.counters.llmCalls).toBe(parent.counters.llmCalls - pathCalls);
    // The carried path keeps its ids, scores and stats.
    const forkTree = SampleTree.fromJSON<AgentNode>(result.tree);
    for (const n of path.slice(0, 3)) expect(forkTree.node(n.id).score).toBe(n.score);
    expect(forkTree.node(node.id).children.length).toBeGreaterThan(0);
    process.stderr.write(`fork at n${node.id} (depth 2): ${completed(result.workflowId)} calls; the parent paid ${completed(parent.workflowId)} (${pathCalls} on the path)\n`);
  });
});

test("a fork whose workers' store has lost everything recovers the path's content from its parent's history", async () => {
  await suite.withWorker(async (taskQueue) => {
    const parent = await groveClient(suite.env, taskQueue).run('agent', quickstartInput({ algorithm: 'greedy', seed: 3 }));
    const path = SampleTree.fromJSON<AgentNode>(parent.tree).pathFromRoot(parent.bestNodeId);
    const amnesicQueue = uniqueTaskQueue('fork-amnesic');
    const worker = await testWorker(suite.env, { taskQueue: amnesicQueue, llm: testLlmConfig(suite.model.baseURL), store: new AmnesicStore() });
    const result = await worker.runUntil(async () => {
      const handle = await groveClient(suite.env, amnesicQueue).fork(parent.workflowId, { nodeId: path[2].id, taskQueue: amnesicQueue });
      return (await handle.result()) as typeof parent;
    });
    expect(result.answer).toBe(parent.answer);
    expect(result.messages.slice(0, 3)).toEqual(parent.messages.slice(0, 3));
  });
});

test('a fork of an airetry run continues its sample tree from a sample, keeping the path', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const parent = await grove.run('airetry', colorGameInput({ seed: 5, apiKwargs: {}, config: { nSamples: 1 } }));
    const tree = SampleTree.fromJSON<ConversationDelta>(parent.tree);
    const first = tree.node(tree.root.children[0]);
    const handle = await grove.fork(parent.workflowId, { nodeId: first.id });
    const result = (await handle.result()) as typeof parent;
    expect(result.success).toBe(true);
    const forkTree = SampleTree.fromJSON<ConversationDelta>(result.tree);
    expect(forkTree.node(first.id).data).toEqual(first.data);
    expect(forkTree.root.children).toEqual([first.id]);
    // Every request the fork made was a new sample: none repeats the path's.
    expect(completed(handle.workflowId)).toBe(result.calls);
  });
});
