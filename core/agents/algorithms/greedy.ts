import { bestNode } from '../best-node';
import type { SearchOps } from '../search/search-ops';
import { exhausted, firstSolution, solved, type SearchAlgorithm } from './search-algorithm';

interface GreedyState {
  current: number;
}

/**
 * Greedy best-first (Saplings' GreedyAgent): expand the current node, move to the best leaf
 * below it — preferring finished answers — and repeat until that is terminal. Cheap, and unable
 * to back up: a low-scoring text answer among the children still ends the run.
 */
export const greedy: SearchAlgorithm = {
  traits: { candidatesPerStep: 'bFactor', evaluatesChildren: true, plannedWidth: true },

  start(ctx) {
    ctx.state.algo = { current: ctx.state.originId } satisfies GreedyState;
  },

  async step(ctx) {
    const algo = ctx.state.algo as unknown as GreedyState;
    const children = await ctx.expand(algo.current);
    const solution = firstSolution(ctx, children);
    if (solution !== undefined) return solved(ctx, solution);
    if (children.length === 0) return exhausted(ctx, `n${algo.current} got no candidates`);
    algo.current = bestNode(ctx.tree, algo.current).id;
    if (ctx.isTerminal(algo.current)) return exhausted(ctx, `the greedy path ended at n${algo.current} without a solution`);
    return true;
  },

  resume: resumeChain,
};

/**
 * Greedy and chain-of-thought follow one node: after a rewind, the rewound node (expanded
 * next), or — when it is a finished answer (a replacement) — its parent, for new candidates.
 */
export function resumeChain(ctx: SearchOps, nodeId: number): void {
  const node = ctx.node(nodeId);
  (ctx.state.algo as unknown as GreedyState).current = ctx.isTerminal(nodeId) ? (node.parent ?? ctx.tree.rootId) : nodeId;
}
