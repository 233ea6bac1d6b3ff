import { AgentInputSchema } from '../../../core/agents/agent-options';
import { runSearch } from '../../../core/agents/run-search';
import { SearchContext } from '../../../core/agents/search-context';
import { SearchState } from '../../../core/agents/search-state';
import type { ConversationDelta } from '../../../core/conversation/delta';
import { SampleTree } from '../../../core/tree/sample-tree';
import { agentAdapter } from '../../../ui/adapters/agent-adapter';
import { codeFixerAdapter } from '../../../ui/adapters/code-fixer-adapter';
import { generateAdapter } from '../../../ui/adapters/generate-adapter';
import { messageLabel, stepLabel } from '../../../ui/adapters/labels';
import type { RunReader } from '../../../ui/adapters';
import { foldToFit } from '../../../ui/model/fold-to-fit';
import { labelOrder, placeLabels } from '../../../ui/model/label-placement';
import { childrenOf, layoutTree } from '../../../ui/model/tree-layout';
import { nodeDetail, pathTo, type ViewNode, type ViewTree } from '../../../ui/model/view-tree';
import { inProcessAgent, QUICKSTART, quickstartInput } from '../../../bench/lib/in-process-agent';

const reader = (over: Partial<RunReader>): RunReader => ({ live: false, input: undefined, result: async () => undefined, query: async () => undefined, ...over });

describe('labels say what a node did', () => {
  it('a tool call with its arguments, not its JSON; a text answer by its words', () => {
    expect(stepLabel('multiply({"a":9418.343,"b":8.11})')).toBe('multiply(a: 9418.343, b: 8.11)');
    expect(stepLabel('final_answer({"answer":"68078726504747…')).toBe('final_answer(answer: "68078726504747…');
    expect(stepLabel('multiply({"a":2,"b":3}), multiply({"a":4,"b":5})')).toBe('multiply(a: 2, b: 3), multiply(a: 4, b: 5)');
    expect(stepLabel('"The answer is \\"42\\"."')).toBe('answer: The answer is "42".');
    expect(stepLabel('"The answer is probably somewhere ar…')).toBe('answer: The answer is probably somewhere ar…');
    expect(messageLabel({ role: 'assistant', content: '  Blue,\n  I think. ' })).toBe('Blue, I think.');
    expect(messageLabel({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'multiply', arguments: '{"a": 2, "b": 3}' } }] })).toBe('multiply(a: 2, b: 3)');
  });
});

describe('a search rewound by a person', () => {
  it('draws the abandoned branch, labels every step by its tool call, and keeps the best path live', async () => {
    const env = inProcessAgent({ seed: 4 });
    const input = quickstartInput({ algorithm: 'astar', seed: 4 });
    const options = AgentInputSchema.parse(input);
    const state = SearchState.create([{ role: 'user', content: QUICKSTART }], await env.port.describeTools(options.tools), 0);
    const ctx = new SearchContext(state, options, env.port);
    let abandoned: number[] = [];
    const outcome = await runSearch(ctx, {
      beforeStep: async () => {
        if (state.counters.steps === 2 && abandoned.length === 0) abandoned = (await ctx.rewind({ nodeId: 1, feedback: 'Multiply exactly the numbers given.' })).abandoned;
        return 'continue';
      },
    });
    if (outcome === 'handover') throw new Error('unexpected handover');
    expect(abandoned.length).toBeGreaterThan(0);
    const result = { tree: state.tree.toJSON(), bestNodeId: outcome.bestId, isSolution: outcome.isSolution, counters: state.counters, stop: outcome.stop, score: outcome.score };
    const snap = await agentAdapter.snapshot(reader({ input, result: async () => result, store: env.store }));
    const nodes = new Map(snap.tree!.nodes.map((n) => [n.id, n]));
    // Labels come from the whole step, not the tree's 40-character preview.
    const cut = state.tree.all().filter((n) => n.data.preview?.endsWith('…'));
    expect(cut.length).toBeGreaterThan(0);
    for (const n of cut) expect(nodes.get(n.id)!.label).toMatch(/^(multiply|final_answer)\(\w+: [^…]+\)$/);
    const withoutStore = await agentAdapter.snapshot(reader({ input, result: async () => result }));
    expect(withoutStore.tree!.nodes.find((n) => n.id === cut[0].id)!.label).toMatch(/…$/);

    expect(snap.tree!.nodes).toHaveLength(state.tree.size); // nothing a rewind pruned is dropped
    for (const id of abandoned) expect(nodes.get(id)!.status).toBe('abandoned');
    expect(snap.tree!.bestPath.some((id) => abandoned.includes(id))).toBe(false);
    expect(snap.facts).toContainEqual(['abandoned by rewinds', `${abandoned.length} node${abandoned.length === 1 ? '' : 's'} (${state.tree.abandonedRoots().map((id) => `n${id}`).join(', ')} and below)`]);
    expect(nodes.get(0)!.label).toBe(`prompt: ${QUICKSTART}`);
    expect(nodes.get(1)!.label).toBe('multiply(a: 9418.343, b: 8.11)');
    // An abandoned node still shows its own conversation, read from the store, and says why it is there.
    const parents = new Map(snap.tree!.nodes.map((n) => [n.id, n.parent] as const));
    const path = pathTo(parents, abandoned[0]);
    const parts = await snap.parts(path, env.store);
    const detail = nodeDetail(path.map((id) => parts.get(id)!), abandoned[0]);
    expect(detail.facts).toContainEqual(['status', expect.stringMatching(/^abandoned: a rewind pruned its branch/)]);
    expect(detail.conversation.length).toBeGreaterThan(1);
  });
});

describe('a code fixer is drawn by what the sandbox said of each attempt', () => {
  const prompt = { role: 'user' as const, content: 'Write add(a, b).' };
  const answer = (code: string) => ({ role: 'assistant' as const, content: `Here:\n\`\`\`python\nimport math\n${code}\n\`\`\`` });
  const tree = SampleTree.create<ConversationDelta>({ add: [prompt] });
  const first = tree.expand(0, { add: [answer('def add(a, b):\n    return a - b')] });
  tree.setSuccess(first.id, false);
  tree.setFeedback(first.id, 'Your code was run. Here is what happened:\n\n**Test Failed:** line 2: assert add(2, 2) == 4 failed\n**Tests:** 1/2 passed.');
  const second = tree.expand(first.id, { add: [{ role: 'user', content: 'fix it' }, answer('def add(a, b):\n    return a + b')] });
  const input = { prompt: 'Write add(a, b).', language: 'python', testCode: 'assert add(1, 1) == 2\nassert add(2, 2) == 4' };

  it('finished: tests and failures from the attempts, the first line of code of a pass', async () => {
    const result = {
      success: true,
      tree: tree.toJSON(),
      activeSampleId: second.id,
      calls: 2,
      retries: 1,
      outcome: { ok: true, stdout: '', stderr: '', durationMs: 1, tests: { passed: 2, total: 2 } },
      attempts: [
        { sampleId: first.id, ok: false, kind: 'test', tests: { passed: 1, total: 2 } },
        { sampleId: second.id, ok: true, tests: { passed: 2, total: 2 } },
      ],
    };
    const snap = await codeFixerAdapter.snapshot(reader({ input, result: async () => result }));
    expect(snap.tree!.nodes.map((n) => [n.status, n.label])).toEqual([
      ['root', 'prompt: Write add(a, b).'],
      ['failed', '✗ 1/2 tests · test failed: line 2: assert add(2, 2) == 4 failed'],
      ['solution', '✓ 2/2 tests · def add(a, b):'],
    ]);
    expect(snap.tree!.bestPath).toEqual([0, first.id, second.id]);
    expect(snap.facts).toEqual(expect.arrayContaining([['language', 'python'], ['tests', '2 lines'], ['verdict', 'fixed: 2/2 tests passed in the sandbox']]));
  });

  it('live: the failure from the feedback, the code of an attempt not yet judged', async () => {
    const snap = await codeFixerAdapter.snapshot(reader({ live: true, input, query: async (name) => (name === 'tree' ? tree.toJSON() : { activeSampleId: second.id, calls: 2, retries: 1 }) }));
    expect(snap.tree!.nodes.map((n) => n.label).slice(1)).toEqual(['✗ test failed: line 2: assert add(2, 2) == 4 failed', 'def add(a, b):']);
    expect(snap.tree!.nodes[2].status).toBe('open');
  });
});

test('a generate run is drawn as its prompt and its answer', async () => {
  const message = { role: 'assistant' as const, content: 'Hi there!' };
  const result = { output: 'Hi there!', message, conversation: [{ role: 'user' as const, content: 'Say hi!' }, message], usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 }, model: 'echo' };
  const snap = await generateAdapter.snapshot(reader({ input: { prompt: 'Say hi!' }, result: async () => result }));
  expect(snap.tree).toEqual({
    nodes: [
      { id: 0, parent: null, label: 'prompt: Say hi!', status: 'root', visits: 0 },
      { id: 1, parent: 0, label: 'Hi there!', status: 'solution', visits: 0 },
    ],
    bestPath: [0, 1],
  });
  const parts = await snap.parts([0, 1], { get: async () => undefined, describe: () => 'unused' });
  expect(nodeDetail([parts.get(0)!, parts.get(1)!], 1).conversation).toEqual(result.conversation);
  const live = await generateAdapter.snapshot(reader({ live: true, input: { prompt: 'Say hi!' } }));
  expect([live.tree!.nodes.length, live.note]).toEqual([1, 'waiting for the model’s answer']);
});

/** root 0 → 1 → {3 → 5, 4}; 0 → 2 (abandoned) → 6 (abandoned); 0 → 7. */
function sample(): ViewTree {
  const n = (id: number, parent: number | null, status: ViewNode['status'] = 'expanded', visits = 0): ViewNode => ({ id, parent, label: `s${id}`, status, visits });
  return { nodes: [n(0, null, 'root', 9), n(1, 0, 'expanded', 6), n(2, 0, 'abandoned'), n(3, 1, 'expanded', 4), n(4, 1, 'pruned', 1), n(5, 3, 'solution', 1), n(6, 2, 'abandoned'), n(7, 0, 'pruned', 1)], bestPath: [0, 1, 3, 5] };
}

describe('the outline layout', () => {
  it('one row per node, depth first, live children before abandoned ones; a fold hides its subtree and counts it', () => {
    const tree = sample();
    const all = layoutTree(tree, childrenOf(tree), new Set());
    expect(all.ids).toEqual([0, 1, 3, 5, 4, 7, 2, 6]);
    expect([...all.depth]).toEqual([0, 1, 2, 3, 2, 1, 1, 2]);
    expect([...all.parentIndex]).toEqual([-1, 0, 1, 2, 1, 0, 0, 6]);
    expect(all.maxDepth).toBe(3);
    const folded = layoutTree(tree, childrenOf(tree), new Set([1]));
    expect(folded.ids).toEqual([0, 1, 7, 2, 6]);
    expect([...folded.hidden]).toEqual([[1, 3]]);
  });

  it('a 10,000-deep chain lays out without recursion', () => {
    const nodes: ViewNode[] = Array.from({ length: 10_000 }, (_, i) => ({ id: i, parent: i === 0 ? null : i - 1, label: '', status: 'expanded', visits: 0 }));
    const layout = layoutTree({ nodes, bestPath: [] }, childrenOf({ nodes, bestPath: [] }), new Set());
    expect(layout.maxDepth).toBe(9_999);
  });
});

describe('folding to fit', () => {
  it('a tree that fits is not folded; a big one keeps the best path and its siblings, then what was visited most', () => {
    const tree = sample();
    expect(foldToFit(tree, childrenOf(tree), 8).size).toBe(0);
    // 6 rows: the best path (0 1 3 5) and its siblings (4, 7, 2) make 7 — more than fit, but the best path's are never folded.
    expect([...foldToFit(tree, childrenOf(tree), 6)]).toEqual([2]);
    const wide: ViewTree = { nodes: [...tree.nodes, { id: 8, parent: 7, label: '', status: 'pruned', visits: 0 }, { id: 9, parent: 4, label: '', status: 'pruned', visits: 0 }], bestPath: tree.bestPath };
    // Room for one more subtree: 4 was visited more than 7 or 2, so it opens first.
    expect([...foldToFit(wide, childrenOf(wide), 8)].sort()).toEqual([2, 7]);
  });
});

test('labels are offered best path first, then solutions, the most visited, the shallowest', () => {
  const tree = sample();
  tree.nodes.push({ id: 8, parent: 7, label: '', status: 'solution', visits: 0 });
  const layout = layoutTree(tree, childrenOf(tree), new Set());
  const order = [...labelOrder(layout, new Map(tree.nodes.map((n) => [n.id, n])), tree.bestPath)].map((i) => layout.ids[i]);
  expect(order).toEqual([0, 1, 3, 5, 8, 7, 4, 2, 6]);
});

describe('label placement', () => {
  const opts = { height: 16, minWidth: 40, gap: 4 };
  it('labels never overlap: one that would is cut where the other begins, or left out', () => {
    const placed = placeLabels(
      [
        { index: 0, x: 100, y: 50, width: 300, limit: 1000 },
        { index: 1, x: 10, y: 55, width: 200, limit: 1000 }, // runs into label 0: cut
        { index: 2, x: 120, y: 45, width: 100, limit: 1000 }, // starts inside label 0: left out
        { index: 3, x: 10, y: 90, width: 500, limit: 300 }, // its own limit
      ],
      [],
      opts,
    );
    expect(placed).toEqual([
      { index: 0, x: 100, y: 50, width: 300 },
      { index: 1, x: 10, y: 55, width: 86 },
      { index: 3, x: 10, y: 90, width: 290 },
    ]);
  });

  it('dots stop ordinary labels; forced ones (the best path) are written over dots but not over labels', () => {
    const dots = [{ x0: 60, x1: 70, y0: 45, y1: 55 }];
    expect(placeLabels([{ index: 0, x: 10, y: 50, width: 200, limit: 1000 }], dots, opts)).toEqual([{ index: 0, x: 10, y: 50, width: 46 }]);
    expect(placeLabels([{ index: 0, x: 10, y: 50, width: 200, limit: 1000, forced: true }, { index: 1, x: 0, y: 52, width: 200, limit: 1000, forced: true }], dots, opts)).toEqual([
      { index: 0, x: 10, y: 50, width: 200 },
    ]);
    expect(placeLabels([{ index: 0, x: 10, y: 50, width: 200, limit: 1000, forced: true }], dots, { ...opts, maxLabels: 0 })).toEqual([]);
  });
});
