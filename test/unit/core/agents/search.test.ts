import { multiplicationPlan } from '../../../../model-server';
import { SearchState } from '../../../../core/agents/search-state';
import type { AgentInput } from '../../../../core/agents/agent-options';
import { messageText } from '../../../../core/schemas/messages';
import { inProcessAgent, QUICKSTART, quickstartInput, searchInProcess } from '../../../../bench/lib/in-process-agent';

const ANSWER = multiplicationPlan().answer;
const base = quickstartInput;

/** Every tool call in a trajectory is answered by a tool message right after its message. */
function expectAllCallsAnswered(messages: Awaited<ReturnType<typeof searchInProcess>> & { handover: false }) {
  const m = messages.messages;
  m.forEach((msg, i) => {
    if (msg.role !== 'assistant' || !msg.tool_calls) return;
    const answers = m.slice(i + 1, i + 1 + msg.tool_calls.length);
    expect(answers.map((a) => (a.role === 'tool' ? a.tool_call_id : undefined))).toEqual(msg.tool_calls.map((c) => c.id));
  });
}

async function solve(input: AgentInput, seed = 0) {
  const r = await searchInProcess(input, { seed });
  if (r.handover) throw new Error('unexpected handover');
  return r;
}

test.each(['mcts', 'astar', 'greedy', 'beam', 'cot'] as const)('%s solves the quickstart task with a careful player', async (algorithm) => {
  const r = await solve(base({ algorithm }));
  expect(r.outcome).toMatchObject({ isSolution: true, score: 1, stop: { kind: 'solved' } });
  expect(Number(r.answer)).toBeCloseTo(ANSWER, 0);
  expect(r.messages[0]).toEqual({ role: 'user', content: QUICKSTART });
  expectAllCallsAnswered(r);
  expect(r.state.counters.evaluations).toBe(algorithm === 'cot' ? 1 : r.state.tree.size - 1);
});

test('MCTS recovers from premature answers that end the greedy search', async () => {
  const input = base({ model: 'multiplier?p=0.2&guess=0.3' });
  const mcts = await solve(input, 1);
  const greedy = await solve({ ...input, algorithm: 'greedy' }, 1);
  expect(mcts.outcome.isSolution).toBe(true);
  expect(greedy.outcome.isSolution).toBe(false);
  expect(greedy.outcome.stop.kind).toBe('exhausted');
  expect(Number(greedy.answer)).not.toBeCloseTo(ANSWER, 0); // greedy took a guessed answer
});

test('MCTS reflects on a failed trajectory, and later candidate calls see the reflection (LATS)', async () => {
  const mcts = await solve(base({ model: 'multiplier?p=0.2&guess=0.3' }), 4);
  expect(mcts.outcome.isSolution).toBe(true);
  expect(mcts.state.counters.reflections).toBe(1);
  const systems = mcts.client.requests.map((r) => JSON.stringify((r.messages as { role: string }[])[0]));
  const reflectionRequest = systems.findIndex((s) => s.includes('You review a failed attempt'));
  expect(reflectionRequest).toBeGreaterThan(0);
  expect(systems.slice(reflectionRequest + 1).some((s) => s.includes('Reflections on earlier failed attempts'))).toBe(true);
});

test('parallel tool calls: every call of a message is executed and answered', async () => {
  const r = await solve(base({ algorithm: 'greedy', parallelToolCalls: true }));
  const parallel = r.messages.find((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 1);
  expect(parallel).toBeDefined();
  expectAllCallsAnswered(r);
  expect(r.outcome.isSolution).toBe(true);
  expect(r.state.tree.node(r.outcome.bestId).depth).toBe(5); // xy and x² in one step
});

test('bad tool calls become tool messages the model and the evaluator see; the search goes on', async () => {
  const r = await solve(base({ algorithm: 'greedy', model: 'multiplier?p=1', maxDepth: 3 }), 3);
  const requests = r.client.requests.map((q) => q.messages as { role: string; content: unknown }[]);
  const toolMessages = requests.flat().filter((m) => m.role === 'tool').map((m) => String(m.content));
  expect(toolMessages.length).toBeGreaterThan(0);
  for (const content of toolMessages) {
    expect(content).toMatch(/^Error: (unknown tool "multiplyy"\. Available tools: multiply, final_answer\.|invalid arguments for multiply: )/);
  }
  const evaluatorInputs = requests.map((msgs) => msgs.map((m) => String(m.content)).join('\n')).filter((t) => t.includes('[tool'));
  expect(evaluatorInputs.some((t) => t.includes('Error: '))).toBe(true);
  expect(r.state.counters.toolErrors).toBeGreaterThan(0);
  expect(r.state.tree.preorder().filter((n) => n.data.toolErrors).length).toBeGreaterThan(0);
});

test('a tool that throws becomes an error message the model sees; the search ends without crashing', async () => {
  const { defineTool } = await import('../../../../activities/tools');
  const { finalAnswer } = await import('../../../../examples/tools');
  const { z } = await import('zod');
  const fragile = defineTool({
    name: 'multiply',
    description: 'Multiplies two numbers, up to a billion.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => {
      if (a * b > 1e9 && a > 1e9) throw new Error('overflow');
      return a * b;
    },
  });
  const env = inProcessAgent({ tools: [fragile, finalAnswer] });
  const r = await searchInProcess(base({ algorithm: 'greedy' }), { env });
  if (r.handover) throw new Error('unexpected handover');
  const toolTexts = env.client.requests.flatMap((q) => (q.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool').map((m) => String(m.content)));
  expect(toolTexts).toContain('Error: multiply failed: overflow');
  expect(r.outcome.isSolution).toBe(false);
  expect(r.state.counters.toolErrors).toBeGreaterThan(0);
});

test('maxCalls is never exceeded: a step starts only if its calls fit', async () => {
  for (const algorithm of ['mcts', 'astar', 'beam'] as const) {
    const r = await searchInProcess(base({ algorithm, budget: { maxCalls: 9 } }), { seed: 0, behaviour: { plannedWidth: false } });
    if (r.handover) throw new Error('unexpected handover');
    expect(r.state.counters.llmCalls).toBeLessThanOrEqual(9);
    expect(r.outcome.stop.kind).toBe('maxCalls');
    expect(r.outcome.stop.message).toMatch(/^Maximum calls reached \(calls: \d+\/9; the next step needs \d+\)\.$/);
  }
  // With planned width, 9 calls buy the careful player's whole 6-step trajectory (unevaluated steps, an evaluated answer).
  const planned = await solve(base({ budget: { maxCalls: 9 } }));
  expect(planned.state.counters.llmCalls).toBeLessThanOrEqual(9);
  expect(planned.outcome.stop.kind).toBe('solved');
});

test('token, cost and time budgets stop a search with their reason', async () => {
  const tokens = await solve(base({ budget: { maxTokens: 800 } }));
  expect(tokens.outcome.stop.kind).toBe('maxTokens');
  const cost = await solve(base({ budget: { maxCostUsd: 0.001 }, pricing: { inputPerMTokUsd: 1000, outputPerMTokUsd: 1000 } }));
  expect(cost.outcome.stop.kind).toBe('maxCost');
  expect(cost.state.costUsd).toBeGreaterThanOrEqual(0.001);
  const time = await solve(base({ budget: { maxWallMs: 5_000 } })); // the test clock advances 1 s per call
  expect(time.outcome.stop.kind).toBe('deadline');
});

test('maxDepth bounds trajectories; the threshold decides what is a solution', async () => {
  const shallow = await solve(base({ algorithm: 'astar', maxDepth: 3 }));
  expect(Math.max(...shallow.state.tree.preorder().map((n) => n.depth))).toBe(3);
  expect(shallow.outcome.isSolution).toBe(false);
  expect(shallow.outcome.stop.kind).toBe('exhausted');
  // Tool use required and no terminal tool: the agent cannot answer, so a score >= threshold is a solution.
  const partial = await solve(base({ algorithm: 'greedy', tools: ['multiply'], toolChoice: 'required', threshold: 0.5 }));
  expect(partial.outcome.isSolution).toBe(true);
  expect(partial.outcome.score).toBeGreaterThanOrEqual(0.5);
  expect(partial.outcome.score).toBeLessThan(1);
});

test('text answers end trajectories when tool use is optional', async () => {
  const r = await solve(base({ algorithm: 'greedy', tools: ['multiply'] }));
  const last = r.messages[r.messages.length - 1];
  expect(last.role).toBe('assistant');
  expect(messageText(last)).toMatch(/^The answer is /);
  expect(r.outcome.isSolution).toBe(true);
});

test('a custom evaluator scores trajectories by name', async () => {
  const r = await solve(base({ evaluator: { name: 'multiplication-checker' } }));
  expect(r.outcome.isSolution).toBe(true);
  expect(r.client.requests.every((q) => q.model === 'multiplier')).toBe(true); // no model-based evaluation
});

test('a search handed over mid-way (continue-as-new) ends exactly like one that was not', async () => {
  const input = base({ model: 'multiplier?p=0.2&guess=0.3' });
  const straight = await solve(input, 6);
  expect(straight.state.counters.steps).toBeGreaterThan(1);
  const env = inProcessAgent({ seed: 6 }); // the same workers and store on both sides of the handover
  const first = await searchInProcess(input, { seed: 6, handoverAtStep: 1, env });
  expect(first.handover).toBe(true);
  const carried = SearchState.fromJSON(JSON.parse(JSON.stringify(first.ctx.handoverJSON())));
  const resumed = await searchInProcess(input, { seed: 6, state: carried, env });
  if (resumed.handover) throw new Error('unexpected handover');
  expect(resumed.outcome).toEqual(straight.outcome);
  // The search is the same; the handover only dropped display fields and finished leaves' refs.
  const searchOnly = (tree: { nodes: unknown[][] }) => tree.nodes.map(([id, parent, _data, ...stats]) => [id, parent, ...stats]);
  expect(searchOnly(resumed.state.tree.toJSON())).toEqual(searchOnly(straight.state.tree.toJSON()));
  expect(JSON.stringify(first.ctx.handoverJSON()).length).toBeLessThan(JSON.stringify(first.state.toJSON()).length);
  expect(resumed.messages).toEqual(straight.messages);
});
