import { AgentInputSchema, type AgentInput } from '../../../../core/agents/agent-options';
import { SearchContext } from '../../../../core/agents/search-context';
import { SearchState } from '../../../../core/agents/search-state';
import { promptConversation } from '../../../../core/schemas/prompt-conversation';
import { checkMultiplication } from '../../../../examples/evaluators/multiplication-checker';
import { inProcessAgent, quickstartInput, searchInProcess } from '../../../../bench/lib/in-process-agent';

const SEEDS = Array.from({ length: 20 }, (_, i) => i);
const tight = (over: Partial<AgentInput> = {}) =>
  quickstartInput({ model: 'multiplier?p=0.2&guess=0.3', maxRollouts: 1000, budget: { maxCalls: 15 }, ...over });

async function contextAt(calls: number, over: Partial<AgentInput> = {}): Promise<SearchContext> {
  const { port } = inProcessAgent();
  const options = AgentInputSchema.parse(tight(over));
  const state = SearchState.create(promptConversation({ prompt: options.prompt, system: null }), await port.describeTools(options.tools), 0);
  state.counters.llmCalls = calls;
  return new SearchContext(state, options, port);
}

// maxDepth 8, bFactor 3, LLM evaluator: from the prompt, finishing below a child takes 7 steps and 1 evaluation.
test.each([
  [0, { k: 3, evaluate: true }], // 15 left: 4 + 8
  [3, { k: 3, evaluate: true }], // 12 left: 4 + 8 exactly
  [4, { k: 2, evaluate: true }], // 11 left: 3 + 8
  [5, { k: 1, evaluate: true }], // 10 left: 2 + 8
  [6, { k: 1, evaluate: false }], // 9 left: one unevaluated step, 7 more and the evaluation
  [13, { k: 1, evaluate: false }], // 2 left: still a step (and the evaluation if it ends the trajectory)
])('with %i of 15 calls spent, the root expansion is planned as %j', async (calls, plan) => {
  expect((await contextAt(calls)).planExpansion(0)).toEqual(plan);
});

test('the plan applies to MCTS and greedy with the LLM evaluator only; one call left stops the search', async () => {
  expect((await contextAt(6, { algorithm: 'greedy' })).planExpansion(0)).toEqual({ k: 1, evaluate: false });
  expect((await contextAt(6, { algorithm: 'astar' })).planExpansion(0)).toEqual({ k: 3, evaluate: true });
  expect((await contextAt(6, { evaluator: { name: 'multiplication-checker' } })).planExpansion(0)).toEqual({ k: 3, evaluate: true });
  expect((await contextAt(12, { algorithm: 'beam' })).planExpansion(0)).toEqual({ k: 2, evaluate: true }); // anytime: the last expansion shrinks
  const lastCall = await contextAt(14);
  expect(() => lastCall.planExpansion(0)).toThrow(/Maximum calls reached \(calls: 14\/15; the next step needs 4\)/);
});

test('under a 15-call budget MCTS finishes more trajectories, and solves more of 20 seeds, with planned width than without', async () => {
  const tally = { planned: { solved: 0, finished: 0 }, unplanned: { solved: 0, finished: 0 } };
  for (const seed of SEEDS) {
    for (const plannedWidth of [true, false]) {
      const run = await searchInProcess(tight({ seed }), { seed, behaviour: { plannedWidth } });
      if (run.handover) throw new Error('unexpected handover');
      const t = tally[plannedWidth ? 'planned' : 'unplanned'];
      expect(run.state.counters.llmCalls).toBeLessThanOrEqual(15);
      const nodes = run.state.tree.preorder().filter((n) => n.parent !== null);
      // Every finished answer is evaluated, planned or not: a step goes unscored only on the way.
      expect(nodes.filter((n) => n.data.output && n.score === undefined)).toEqual([]);
      if (!plannedWidth) expect(nodes.filter((n) => n.score === undefined)).toEqual([]);
      t.finished += nodes.some((n) => n.data.output && n.depth >= 6) ? 1 : 0;
      t.solved += checkMultiplication(run.messages).score === 1 ? 1 : 0;
    }
  }
  expect(tally.planned.finished).toBeGreaterThan(tally.unplanned.finished);
  expect(tally.planned.solved).toBeGreaterThan(tally.unplanned.solved);
});

test('with room for any trajectory, planned width changes nothing; A* and beam are never planned', async () => {
  for (const [algorithm, maxCalls] of [['mcts', 200], ['astar', 15], ['beam', 15]] as const) {
    for (const seed of [0, 1, 2]) {
      const spec = tight({ algorithm, seed, budget: { maxCalls } });
      const [on, off] = await Promise.all([true, false].map((plannedWidth) => searchInProcess(spec, { seed, behaviour: { plannedWidth } })));
      if (on.handover || off.handover) throw new Error('unexpected handover');
      expect(on.state.tree.toJSON()).toEqual(off.state.tree.toJSON());
    }
  }
});
