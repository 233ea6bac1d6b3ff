import type { AlgorithmTraits, SearchOps } from '../search/search-ops';

/**
 * A search algorithm as a state machine: `start` puts its initial state in `ctx.state.algo`,
 * each `step` does one unit of work (an MCTS rollout, one A* pop, one beam level...) and
 * returns false when the search is over (having set `ctx.state.stop`). Between steps the
 * whole state is plain JSON, so a workflow may continue-as-new there.
 */
export interface SearchAlgorithm {
  /** What the shared search code needs to know of it: candidates per step, evaluated children, planned width. */
  traits: AlgorithmTraits;
  start(ctx: SearchOps): void;
  step(ctx: SearchOps): Promise<boolean>;
  /**
   * After a rewind pruned part of the tree: go on from `nodeId` (re-expand it next, or — for a
   * finished answer — carry on without the pruned nodes).
   */
  resume(ctx: SearchOps, nodeId: number): void;
}

/** The first solution among freshly expanded children, if any (every algorithm stops on it). */
export function firstSolution(ctx: SearchOps, ids: number[]): number | undefined {
  return ids.find((id) => ctx.isSolution(id));
}

/** Ends the search on a solution. */
export function solved(ctx: SearchOps, id: number): false {
  ctx.state.solutionId = id;
  ctx.state.stop = { kind: 'solved', message: `n${id} scored ${ctx.node(id).score?.toFixed(2)} (threshold ${ctx.options.threshold})` };
  return false;
}

/** Ends the search with nothing left to explore. */
export function exhausted(ctx: SearchOps, why: string): false {
  ctx.state.stop = { kind: 'exhausted', message: why };
  return false;
}
