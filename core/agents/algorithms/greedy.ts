import { bestNode } from '../best-node';
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
};
