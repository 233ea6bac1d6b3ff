import { AICall } from '../../../core/airetry/ai-call';
import { textOutput } from '../../../core/airetry/output-parsers';
import { materialize } from '../../../core/conversation/delta';
import { forkOrigin, forkParent, forkTree, startFromFork } from '../../../core/runs/fork';
import { SampleTree } from '../../../core/tree/sample-tree';
import { inProcessAgent, quickstartInput, searchInProcess } from '../../../bench/lib/in-process-agent';
import { colorGameTree } from './fixtures';

describe('forkTree: the part of a tree a fork carries', () => {
  test('the path from the root to the node, ids, stats and the next id kept', () => {
    const tree = colorGameTree();
    const json = forkTree(tree, 5); // root 0 → c1 (1) → c11 (3) → c111 (5)
    const carried = SampleTree.fromJSON(json);
    expect([...carried.preorder()].map((n) => n.id)).toEqual([0, 1, 3, 5]);
    expect(carried.nextId).toBe(tree.nextId);
    for (const id of [0, 1, 3, 5]) {
      expect(carried.node(id)).toMatchObject({ wins: tree.node(id).wins, visits: tree.node(id).visits, data: tree.node(id).data });
    }
  });

  test('with subtree: the node’s descendants too; without stats: visits zeroed, scores kept', () => {
    const tree = colorGameTree();
    tree.setScore(3, 0.5);
    const carried = SampleTree.fromJSON(forkTree(tree, 3, { subtree: true, keepStats: false }));
    expect([...carried.preorder()].map((n) => n.id)).toEqual([0, 1, 3, 5, 6]);
    expect(carried.node(3)).toMatchObject({ wins: 0, visits: 0, valueSum: 0, score: 0.5 });
  });

  test('an unknown node is named', () => {
    expect(() => forkTree(colorGameTree(), 42)).toThrow('n42 is not in the tree (it has 9 nodes, ids up to 8)');
  });
});

test('forkOrigin / startFromFork / forkParent: what a fork input carries and how a run starts from it', () => {
  const origin = forkOrigin({ workflowId: 'airetry-1', runId: 'r1' }, colorGameTree(), 3);
  const { tree, nodeId } = startFromFork(origin);
  expect(nodeId).toBe(3);
  expect(tree.size).toBe(3);
  expect(forkParent({ prompt: 'x', fork: origin })).toEqual({ workflowId: 'airetry-1', runId: 'r1' });
  expect(forkParent({ prompt: 'x' })).toBeUndefined();
  expect(forkParent(null)).toBeUndefined();
  expect(() => startFromFork({ ...origin, nodeId: 7 })).toThrow('fork.nodeId: n7 is not in the carried tree');
});

test('an AI call started from a fork has the carried samples, the node active, and their conversations', () => {
  const tree = colorGameTree();
  const { tree: carried } = startFromFork(forkOrigin({ workflowId: 'w' }, tree, 5));
  const forked = new AICall([], { kind: 'generate', parser: textOutput, from: { tree: carried, activeSampleId: 5 } });
  expect(forked.activeSampleId).toBe(5);
  expect(forked.success).toBe(true);
  expect(forked.conversation).toEqual(materialize(tree, 5));
  expect(forked.samples.size).toBe(4);
});

test('a forked search starts at its node: a greedy search forked at depth 2 makes exactly the parent’s decisions below it', async () => {
  const input = quickstartInput({ algorithm: 'greedy', seed: 3 });
  const env = inProcessAgent(); // one message store: the fork reads the path the parent stored
  const parent = await searchInProcess(input, { env });
  if (parent.handover) throw new Error('unexpected handover');
  const path = parent.state.tree.pathFromRoot(parent.outcome.bestId);
  const fork = forkOrigin({ workflowId: 'agent-1' }, parent.state.tree, path[2].id);
  const forked = await searchInProcess({ ...input, fork }, { env });
  if (forked.handover) throw new Error('unexpected handover');
  expect(forked.state.origin).toBe(path[2].id);
  expect(forked.answer).toBe(parent.answer);
  expect(forked.state.counters.expansions).toBe(parent.state.counters.expansions - 2);
});
