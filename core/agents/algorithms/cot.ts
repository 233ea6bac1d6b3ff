import { resumeChain } from './greedy';
import { exhausted, solved, type SearchAlgorithm } from './search-algorithm';

interface CotState {
  current: number;
}

/**
 * Chain of thought, no search (Saplings' COTAgent; the baseline): one candidate per step,
 * follow it until the trajectory ends. Steps are not evaluated; the final node is, once, so
 * its score and `isSolution` compare with the search agents' (Saplings returned no score).
 */
export const cot: SearchAlgorithm = {
  traits: { candidatesPerStep: 1, evaluatesChildren: false, plannedWidth: false },

  start(ctx) {
    ctx.state.algo = { current: ctx.state.originId } satisfies CotState;
  },

  async step(ctx) {
    const algo = ctx.state.algo as unknown as CotState;
    const [next] = await ctx.expand(algo.current);
    if (next === undefined) return exhausted(ctx, `n${algo.current} got no answer`);
    algo.current = next;
    if (!ctx.isTerminal(next)) return true;
    ctx.ensureBudget(ctx.options.evaluator.name === 'llm' ? 1 : 0);
    await ctx.evaluateNode(next);
    return ctx.isSolution(next) ? solved(ctx, next) : exhausted(ctx, `the chain ended at n${next} without a solution`);
  },

  resume: resumeChain,
};
