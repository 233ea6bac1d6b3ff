import type { SearchOps } from '../search/search-ops';
import { exhausted, firstSolution, solved, type SearchAlgorithm } from './search-algorithm';

interface AStarState {
  /** [node id, priority, insertion number]; the highest priority pops first, FIFO among equals. */
  frontier: [number, number, number][];
  pushed: number;
}

/**
 * A* over trajectories (Saplings' AStarAgent, after Koh et al.): pop the most promising node,
 * stop if it is a solution, drop it if it is terminal, else expand it and push its children.
 * Priority f = score − pathCost·depth: the evaluator's score is the heuristic and each step
 * costs a little, so of two equally good trajectories the shorter wins (`pathCost: 0` is
 * Saplings' pure best-first on the score).
 */
export const astar: SearchAlgorithm = {
  traits: { candidatesPerStep: 'bFactor', evaluatesChildren: true, plannedWidth: false },

  start(ctx) {
    ctx.state.algo = { frontier: [[ctx.state.originId, 0, 0]], pushed: 1 } satisfies AStarState;
  },

  async step(ctx) {
    const algo = ctx.state.algo as unknown as AStarState;
    if (algo.frontier.length === 0) return exhausted(ctx, 'the frontier is empty: every trajectory ended without a solution');
    if (ctx.options.parallelism > 1) return parallelStep(ctx, algo);
    const id = popBest(algo);
    if (ctx.isSolution(id)) return solved(ctx, id);
    if (ctx.isTerminal(id)) return true;
    const children = await ctx.expand(id);
    const solution = firstSolution(ctx, children);
    if (solution !== undefined) return solved(ctx, solution);
    for (const child of children) algo.frontier.push([child, priority(ctx, child), algo.pushed++]);
    return true;
  },

  resume(ctx, nodeId) {
    const algo = ctx.state.algo as unknown as AStarState;
    algo.frontier = algo.frontier.filter(([id]) => !ctx.node(id).abandoned && id !== nodeId);
    // Priorities are at most 1: the rewound node pops next.
    if (!ctx.isTerminal(nodeId)) algo.frontier.push([nodeId, REWOUND_PRIORITY, algo.pushed++]);
  },
};

const REWOUND_PRIORITY = 2;

/** Takes the highest-priority node off the frontier (FIFO among equals). */
function popBest(algo: AStarState): number {
  let top = 0;
  for (let i = 1; i < algo.frontier.length; i++) {
    const [, p, n] = algo.frontier[i];
    const [, bp, bn] = algo.frontier[top];
    if (p > bp || (p === bp && n < bn)) top = i;
  }
  return algo.frontier.splice(top, 1)[0][0];
}

/**
 * Parallel A*: pop up to `parallelism` of the best frontier nodes (a solution among them ends
 * the search; finished ones are dropped), expand them at once, then — in pop order, whatever
 * order the calls finish in — attach the children, stop at the first solution, push the rest.
 * Expansions that no longer fit the budget go back on the frontier for a later round.
 */
async function parallelStep(ctx: SearchOps, algo: AStarState): Promise<boolean> {
  const picked: number[] = [];
  while (picked.length < ctx.options.parallelism && algo.frontier.length > 0) {
    const id = popBest(algo);
    if (ctx.isSolution(id)) return solved(ctx, id);
    if (!ctx.isTerminal(id)) picked.push(id);
  }
  const levels = await ctx.expandRound(picked);
  for (const id of picked.slice(levels.length)) algo.frontier.push([id, priority(ctx, id), algo.pushed++]);
  for (const children of levels) {
    const solution = firstSolution(ctx, children);
    if (solution !== undefined) return solved(ctx, solution);
  }
  for (const child of levels.flat()) algo.frontier.push([child, priority(ctx, child), algo.pushed++]);
  return true;
}

function priority(ctx: SearchOps, id: number): number {
  const node = ctx.node(id);
  return (node.score ?? 0) - ctx.options.pathCost * node.depth;
}
