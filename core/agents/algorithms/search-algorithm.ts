import type { SearchContext } from '../search-context';

/**
 * A search algorithm as a state machine: `start` puts its initial state in `ctx.state.algo`,
 * each `step` does one unit of work (an MCTS rollout, one A* pop, one beam level...) and
 * returns false when the search is over (having set `ctx.state.stop`). Between steps the
 * whole state is plain JSON, so a workflow may continue-as-new there.
 */
export interface SearchAlgorithm {
  start(ctx: SearchContext): void;
  step(ctx: SearchContext): Promise<boolean>;
  /**
   * After a rewind pruned part of the tree: go on from `nodeId` (re-expand it next, or — for a
   * finished answer — carry on without the pruned nodes).
   */
  resume(ctx: SearchContext, nodeId: number): void;
}

/** The first solution among freshly expanded children, if any (every algorithm stops on it). */
export function firstSolution(ctx: SearchContext, ids: number[]): number | undefined {
  return ids.find((id) => ctx.isSolution(id));
}

/** Ends the search on a solution. */
export function solved(ctx: SearchContext, id: number): false {
  ctx.state.solutionId = id;
  ctx.state.stop = { kind: 'solved', message: `n${id} scored ${ctx.node(id).score?.toFixed(2)} (threshold ${ctx.options.threshold})` };
  return false;
}

/** Ends the search with nothing left to explore. */
export function exhausted(ctx: SearchContext, why: string): false {
  ctx.state.stop = { kind: 'exhausted', message: why };
  return false;
}
