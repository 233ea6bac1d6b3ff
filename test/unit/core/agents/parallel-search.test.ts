import type { AgentPort } from '../../../../core/agents/agent-port';
import { inProcessAgent, quickstartInput, searchInProcess } from '../../../../bench/lib/in-process-agent';

/** The in-process agent with every model call and evaluation answered after a random delay (a different order each run). */
function jittered(seed: number) {
  const env = inProcessAgent({ seed: 1 });
  let state = seed;
  const delay = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return new Promise((resolve) => setTimeout(resolve, state % 15));
  };
  const port: AgentPort = env.port;
  const { chat, evaluate, runTool } = port;
  port.chat = async (input, summary) => (await delay(), chat(input, summary));
  port.evaluate = async (input, summary) => (await delay(), evaluate(input, summary));
  port.runTool = async (input, summary, opts) => (await delay(), runTool(input, summary, opts));
  return env;
}

const input = (over = {}) => quickstartInput({ model: 'multiplier?p=0.4&guess=0.4', parallelism: 3, budget: { maxCalls: 60 }, seed: 7, ...over });

/** The trees one search grows when its calls finish in the orders the given jitter seeds make. */
async function treesUnderJitter(spec: ReturnType<typeof input>, jitters: number[]): Promise<string[]> {
  const runs = await Promise.all(jitters.map((jitter) => searchInProcess(spec, { seed: 1, env: jittered(jitter) })));
  return runs.map((r) => {
    if (r.handover) throw new Error('no handover expected');
    return JSON.stringify(r.state.tree.toJSON());
  });
}

test('parallel MCTS: the same seed gives the same tree whatever order the calls finish in', async () => {
  const trees = await treesUnderJitter(input(), [11, 22, 33]);
  expect(trees[1]).toBe(trees[0]);
  expect(trees[2]).toBe(trees[0]);
});

test('parallel MCTS solves the quickstart, rollouts run side by side, and the call budget holds', async () => {
  const run = await searchInProcess(input({ model: 'multiplier?p=0.2&guess=0.3' }), { seed: 1 });
  if (run.handover) throw new Error('no handover expected');
  expect(run.outcome.stop.kind).toBe('solved');
  // Virtual loss spread the first round over the root's children instead of one path.
  const root = run.state.tree.node(0);
  expect(root.children.filter((c) => run.state.tree.node(c).children.length > 0).length).toBeGreaterThan(1);
  for (const maxCalls of [9, 13, 20, 31]) {
    const limited = await searchInProcess(input({ budget: { maxCalls } }), { seed: 1 });
    if (limited.handover) throw new Error('no handover expected');
    expect(limited.state.counters.llmCalls).toBeLessThanOrEqual(maxCalls);
  }
});

test('parallelism above the operator fan-out is refused before a run', async () => {
  const { policyViolations, DEFAULT_POLICY } = await import('../../../../core/policy/operator-policy');
  expect(policyViolations('agent', { parallelism: 8, bFactor: 3 }, DEFAULT_POLICY, 'q')).toEqual(['parallelism × bFactor: 24 is above the operator limit of 16 (maxFanOut)']);
  expect(policyViolations('agent', { parallelism: 4 }, DEFAULT_POLICY, 'q')).toEqual([]);
});

test('beam search: a level expanded side by side gives the same tree whatever order its calls finish in', async () => {
  const beam = (over = {}) => input({ algorithm: 'beam', parallelism: 1, beamWidth: 3, ...over });
  const trees = await treesUnderJitter(beam(), [5, 6, 7]);
  expect(trees[1]).toBe(trees[0]);
  expect(trees[2]).toBe(trees[0]);
});

test('parallel A*: the same tree whatever the timing, the budget holds, and it solves', async () => {
  const astar = (over = {}) => input({ algorithm: 'astar', ...over });
  const trees = await treesUnderJitter(astar(), [8, 9]);
  expect(trees[1]).toBe(trees[0]);
  const solvedRun = await searchInProcess(astar({ model: 'multiplier?p=0.2&guess=0.3' }), { seed: 1 });
  if (solvedRun.handover) throw new Error('no handover expected');
  expect(solvedRun.outcome.stop.kind).toBe('solved');
  for (const maxCalls of [9, 14, 23]) {
    const limited = await searchInProcess(astar({ budget: { maxCalls } }), { seed: 1 });
    if (limited.handover) throw new Error('no handover expected');
    expect(limited.state.counters.llmCalls).toBeLessThanOrEqual(maxCalls);
  }
});
