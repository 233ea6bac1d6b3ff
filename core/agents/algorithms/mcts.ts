import { valueUct } from '../../scoring/score-node';
import type { SearchContext } from '../search-context';
import { firstSolution, solved, type SearchAlgorithm } from './search-algorithm';

interface MctsState {
  rollouts: number;
  /** The node the current rollout expands next (undefined between rollouts). */
  current?: number;
}

/**
 * Monte Carlo tree search as in LATS / Saplings' MonteCarloAgent. Each rollout:
 * select (descend by UCT through non-terminal nodes that still have a non-terminal leaf
 * below), expand the selected leaf, simulate (greedily expand the best new child until a
 * terminal node), then backpropagate the terminal node's score to the root. A failed terminal
 * trajectory gets a reflection (LATS; Saplings left it as a TODO) that later expansions see.
 * One step is one expansion, so long rollouts can still hand over between steps.
 *
 * Departures from Saplings: the root is the prompt itself (Saplings' own TODO: a bad first
 * tool call no longer "screws" the tree), UCT divides the value sum by visits once (Saplings
 * divided a mean again), a solution found among any expansion's children ends the search at
 * once, and when every trajectory has ended without a solution the root is widened with new
 * candidates (which see the reflections) instead of giving up, until `maxRollouts`. A fork
 * searches below its node: selection starts there, and there it widens.
 */
export const mcts: SearchAlgorithm = {
  start(ctx) {
    ctx.state.algo = { rollouts: 0 } satisfies MctsState;
  },

  async step(ctx) {
    const algo = ctx.state.algo as unknown as MctsState;
    if (algo.current === undefined) {
      if (algo.rollouts >= ctx.options.maxRollouts) {
        ctx.state.stop = { kind: 'maxRollouts', message: `${algo.rollouts} rollouts done (maxRollouts ${ctx.options.maxRollouts})` };
        return false;
      }
      algo.current = select(ctx) ?? ctx.state.originId;
    }
    const current: number = algo.current;
    const children = await ctx.expand(current);
    const solution = firstSolution(ctx, children);
    if (solution !== undefined) return markSolved(ctx, solution);
    const next = best(ctx, children);
    if (next !== undefined && !ctx.isTerminal(next)) {
      algo.current = next; // keep simulating
      return true;
    }
    const end = next ?? current;
    if (ctx.isTerminal(end)) await ctx.reflect(end);
    ctx.tree.backpropagate(end, { visits: 1, value: ctx.node(end).score ?? 0 });
    algo.rollouts += 1;
    algo.current = undefined;
    return true;
  },

  resume(ctx, nodeId) {
    // Re-expand the rewound node in the rollout under way; after a finished answer, select anew.
    (ctx.state.algo as unknown as MctsState).current = ctx.isTerminal(nodeId) ? undefined : nodeId;
  },
};

/** Descends from the root (a fork: its node) by UCT; undefined when no non-terminal leaf is left. */
function select(ctx: SearchContext): number | undefined {
  let id = ctx.state.originId;
  for (;;) {
    const node = ctx.node(id);
    if (node.children.length === 0) return ctx.isTerminal(id) ? undefined : id;
    let bestId: number | undefined;
    let bestScore = -Infinity;
    for (const child of node.children) {
      if (ctx.isTerminal(child) || !hasOpenLeaf(ctx, child)) continue;
      const score = valueUct(ctx.tree, child, ctx.options.exploration);
      if (score > bestScore) {
        bestId = child;
        bestScore = score;
      }
    }
    if (bestId === undefined) return undefined;
    id = bestId;
  }
}

/** Whether the subtree has a leaf that is not terminal (somewhere left to search). */
function hasOpenLeaf(ctx: SearchContext, id: number): boolean {
  const stack = [id];
  while (stack.length > 0) {
    const node = ctx.node(stack.pop()!);
    if (ctx.isTerminal(node.id)) continue;
    if (node.children.length === 0) return true;
    stack.push(...node.children);
  }
  return false;
}

/** The best of freshly expanded children (ties: the first). */
function best(ctx: SearchContext, ids: number[]): number | undefined {
  let top: number | undefined;
  for (const id of ids) if (top === undefined || (ctx.node(id).score ?? 0) > (ctx.node(top).score ?? 0)) top = id;
  return top;
}

function markSolved(ctx: SearchContext, id: number): false {
  for (const node of ctx.tree.pathToRoot(id)) ctx.tree.setData(node.id, { ...node.data, solved: true });
  ctx.tree.backpropagate(id, { visits: 1, value: ctx.node(id).score ?? 0 });
  return solved(ctx, id);
}
