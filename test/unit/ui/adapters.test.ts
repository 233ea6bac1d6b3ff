import { agentAdapter } from '../../../ui/adapters/agent-adapter';
import { airetryAdapter } from '../../../ui/adapters/airetry-adapter';
import { adapterFor, type RunReader } from '../../../ui/adapters';
import { nodeDetail, pathTo, type NodeParts } from '../../../ui/model/view-tree';
import { SampleTree } from '../../../core/tree/sample-tree';
import type { ConversationDelta } from '../../../core/conversation/delta';
import { inProcessAgent, quickstartInput, searchInProcess } from '../../../bench/lib/in-process-agent';
import { colorGameInput } from '../../support/inputs';
import { RUN_KIND_NAMES } from '../../../core/runs/run-kind-names';

const reader = (over: Partial<RunReader>): RunReader => ({
  live: false,
  input: undefined,
  result: async () => undefined,
  query: async (name) => {
    throw new Error(`no ${name} query here`);
  },
  ...over,
});

async function detailOf(snapshot: Awaited<ReturnType<typeof agentAdapter.snapshot>>, id: number, store: Parameters<typeof snapshot.parts>[1]) {
  const parents = new Map(snapshot.tree!.nodes.map((n) => [n.id, n.parent] as const));
  const path = pathTo(parents, id);
  const parts = await snapshot.parts(path, store);
  return nodeDetail(path.map((p) => parts.get(p)!), id);
}

test('every kind of run has an adapter, chosen by its kind', () => {
  expect(adapterFor('agent:mcts')).toBe(agentAdapter);
  expect(adapterFor('airetry')).toBe(airetryAdapter);
  for (const kind of RUN_KIND_NAMES) expect(adapterFor(kind === 'agent' ? 'agent:beam' : kind)).toBeDefined();
  expect(adapterFor('something-else')).toBeUndefined();
});

test('an agent search: statuses by the run rules, the best path, and every conversation rebuilt from the store', async () => {
  const input = quickstartInput({ model: 'multiplier?p=0.3&guess=0.3', seed: 3 });
  const env = inProcessAgent({ seed: 3 });
  const run = await searchInProcess(input, { env });
  if (run.handover) throw new Error('unexpected handover');
  const tree = run.state.tree.toJSON();
  const result = { tree, bestNodeId: run.outcome.bestId, isSolution: run.outcome.isSolution, answer: run.answer, counters: run.state.counters, stop: run.outcome.stop, score: run.outcome.score };
  const finished = await agentAdapter.snapshot(reader({ input, result: async () => result }));

  expect(finished.tree!.nodes).toHaveLength(run.state.tree.size);
  expect(finished.tree!.bestPath).toEqual(run.state.tree.pathFromRoot(run.outcome.bestId).map((n) => n.id));
  const statusOf = new Map(finished.tree!.nodes.map((n) => [n.id, n.status]));
  expect(statusOf.get(0)).toBe('root');
  expect(statusOf.get(run.outcome.bestId)).toBe(run.outcome.isSolution ? 'solution' : statusOf.get(run.outcome.bestId));
  for (const node of run.state.tree.preorder()) {
    if (node.parent === null) continue;
    const status = statusOf.get(node.id);
    if (node.data.toolErrors) expect(status === 'failed' || status === 'solution').toBe(true);
    else if (node.children.length > 0) expect(status).toBe('expanded');
    else if (node.data.output && status !== 'solution') expect(status).toBe('terminal');
    else if (!node.data.output && node.depth < input.maxDepth!) expect(status).toBe('pruned'); // finished: left unexpanded
  }
  expect(finished.facts).toEqual(expect.arrayContaining([['algorithm', 'mcts'], ['nodes', String(run.state.tree.size)]]));

  // The best node's conversation is the run's answer trajectory, message for message.
  const best = await detailOf(finished, run.outcome.bestId, env.store);
  expect(best.note).toBeUndefined();
  expect(best.conversation).toEqual(run.messages);
  expect(best.own).toBe(run.messages.length - 1 - (best.conversation[best.conversation.length - 1].role === 'tool' ? 1 : 0));
  expect(best.reasoning).toBe(run.state.tree.node(run.outcome.bestId).data.reasoning);

  // While the run works, unexpanded leaves are open, not pruned; read by query.
  const live = await agentAdapter.snapshot(reader({ live: true, input, query: async (name) => (name === 'tree' ? tree : { counters: run.state.counters, reflections: [] }) }));
  const leaves = live.tree!.nodes.filter((n) => statusOf.get(n.id) === 'pruned');
  expect(leaves.length).toBeGreaterThan(0);
  for (const leaf of leaves) expect(live.tree!.nodes.find((n) => n.id === leaf.id)!.status).toBe('open');

  // A store that lacks the messages says so instead of showing a wrong conversation.
  const empty = { get: async () => undefined, describe: () => 'folder /nowhere' };
  const missing = await detailOf(finished, run.outcome.bestId, empty);
  expect(missing.conversation).toEqual([]);
  expect(missing.note).toMatch(/^the message store \(folder \/nowhere\) has no (trajectory|message) [0-9a-f]{32} \(yet\)$/);
});

test('an airetry sample tree: failed samples, the active sample as the solution, conversations from the deltas', async () => {
  const prompt = { role: 'user' as const, content: 'Guess a color' };
  const tree = SampleTree.create<ConversationDelta>({ add: [prompt] });
  const a = tree.expand(0, { add: [{ role: 'assistant', content: 'I think it is Red.' }] });
  tree.setSuccess(a.id, false);
  tree.setFeedback(a.id, '\nYou must answer with 1 word only.');
  tree.backpropagate(a.id, { wins: 0 });
  const feedback = { role: 'user' as const, content: 'You must answer with 1 word only.' };
  const b = tree.expand(a.id, { add: [feedback, { role: 'assistant', content: 'yellow' }] });
  tree.backpropagate(b.id, { wins: 1 });
  const c = tree.expand(0, { keep: 1, add: [{ role: 'assistant', content: 'blue' }] });
  const result = { tree: tree.toJSON(), activeSampleId: b.id, success: true, checks: [{ name: 'maxWords#0', passed: true }], calls: 3, retries: 1, output: 'yellow' };
  const snap = await airetryAdapter.snapshot(reader({ input: colorGameInput(), result: async () => result }));

  expect(snap.tree!.nodes.map((n) => [n.id, n.status, n.label])).toEqual([
    [0, 'root', expect.stringMatching(/^prompt: Guess what color I am thinking\. It could be/)],
    [a.id, 'failed', 'I think it is Red.'],
    [b.id, 'solution', 'yellow'],
    [c.id, 'pruned', 'blue'],
  ]);
  expect(snap.tree!.bestPath).toEqual([0, a.id, b.id]);
  expect(snap.facts).toEqual(expect.arrayContaining([['check maxWords#0', 'passed'], ['check lowercase#1', 'not reached']]));
  expect(snap.tree!.nodes[1]).toMatchObject({ value: 0.5, visits: 2 }); // its own failure and its child's pass

  const parents = new Map(snap.tree!.nodes.map((n) => [n.id, n.parent] as const));
  const detail = async (id: number) => {
    const path = pathTo(parents, id);
    const parts = await snap.parts(path, { get: async () => undefined, describe: () => 'unused' });
    return nodeDetail(path.map((p) => parts.get(p)!), id);
  };
  const failed = await detail(a.id);
  expect(failed.feedback).toBe('You must answer with 1 word only.');
  const solved = await detail(b.id);
  expect(solved.conversation.map((m) => m.content)).toEqual(['Guess a color', 'I think it is Red.', 'You must answer with 1 word only.', 'yellow']);
  expect(solved.own).toBe(2);
});

test('nodeDetail applies deltas from the root (keep drops a tail) and reports a missing link', () => {
  const u = (content: string) => ({ role: 'user' as const, content });
  const parts = (delta?: { keep?: number; add: ReturnType<typeof u>[] }, note?: string): NodeParts => ({ facts: [], delta, note });
  expect(nodeDetail([parts({ add: [u('a'), u('b')] }), parts({ keep: 1, add: [u('c')] })], 5)).toMatchObject({ id: 5, conversation: [u('a'), u('c')], own: 1 });
  expect(nodeDetail([parts({ add: [u('a')] }), parts(undefined, 'let go at a handover'), parts({ add: [u('c')] })], 7)).toMatchObject({
    conversation: [],
    note: 'let go at a handover',
  });
  expect(pathTo(new Map([[0, null], [1, 0], [4, 1]]), 4)).toEqual([0, 1, 4]);
});

test('a session: one node per message, the live conversation as the best path, rewound messages abandoned, messages from the store', async () => {
  const { SessionTree } = await import('../../../core/session/message-tree');
  const { MemoryMessageStore } = await import('../../../activities/store/memory-message-store');
  const { messageRef } = await import('../../../core/hash/refs');
  const { assistantMessage, systemMessage, userMessage } = await import('../../../core/schemas/messages');
  const session = SessionTree.create([systemMessage('Be brief')], 0);
  const messages = [userMessage('Capital of France?'), assistantMessage('Lyon.'), userMessage('Sure?'), assistantMessage('Yes.')];
  messages.forEach((m, i) => session.append(m, { turn: i < 2 ? 1 : 2, at: i + 1, by: m.role === 'user' ? 'ana' : undefined }));
  session.rewind({ n: 1 }, 'Paris.', { at: 10, by: 'ana', source: 'update' });
  const store = new MemoryMessageStore();
  const all = [systemMessage('Be brief'), ...messages, assistantMessage('Paris.')];
  await store.put(Object.fromEntries(all.map((m) => [messageRef(m), m])));

  expect(adapterFor('session')).toBeDefined();
  const snapshot = await adapterFor('session')!.snapshot(reader({ live: true, query: async () => session.view() }));
  const statuses = snapshot.tree!.nodes.map((n) => `${n.label} ${n.status}`);
  expect(statuses).toEqual([
    'system: Be brief root',
    'user: Capital of France? expanded',
    'assistant: Lyon. abandoned',
    'user: Sure? abandoned',
    'assistant: Yes. abandoned',
    'assistant: Paris. open',
  ]);
  expect(snapshot.tree!.bestPath).toEqual([0, 1, 5]);
  expect(snapshot.facts).toContainEqual(['abandoned', '3']);
  const detail = await detailOf(snapshot, 5, store);
  expect(detail.conversation.map((m) => (m as { content: string }).content)).toEqual(['Be brief', 'Capital of France?', 'Paris.']);
});
