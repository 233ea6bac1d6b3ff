import { valueUct } from '../../scoring/score-node';
import type { SearchOps } from '../search/search-ops';
import { firstSolution, solved, type SearchAlgorithm } from './search-algorithm';

interface MctsState {
  rollouts: number;
  /** The node the current rollout expands next (undefined between rollouts). */
  current?: number;
  /** Parallel MCTS: the node each rollout in flight expands next, in selection order. */
  inflight?: number[];
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
  traits: { candidatesPerStep: 'bFactor', evaluatesChildren: true, plannedWidth: true },

  start(ctx) {
    ctx.state.algo = { rollouts: 0 } satisfies MctsState;
  },

  async step(ctx) {
    const algo = ctx.state.algo as unknown as MctsState;
    if (ctx.options.parallelism > 1) return parallelStep(ctx, algo);
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
    const algo = ctx.state.algo as unknown as MctsState;
    algo.current = ctx.isTerminal(nodeId) ? undefined : nodeId;
    if (ctx.options.parallelism > 1) algo.inflight = algo.current === undefined ? [] : [algo.current];
  },
};

/**
 * One round of parallel MCTS: top the rollouts in flight up to `parallelism` (each new leaf
 * selected with a virtual loss on the paths of those already in flight, so they spread out),
 * expand them all at once, then — in selection order, whatever order the calls finished in —
 * attach the children, stop at the first solution, continue each rollout into its best child or
 * end it (backpropagate; reflect on a failed answer). Reflections of one round are asked for
 * together and kept in selection order. A round whose later expansions no longer fit the budget
 * runs the ones that do.
 */
async function parallelStep(ctx: SearchOps, algo: MctsState): Promise<boolean> {
  const inflight = (algo.inflight ??= []);
  while (inflight.length < ctx.options.parallelism && algo.rollouts + inflight.length < ctx.options.maxRollouts) {
    const leaf = select(ctx, inflight);
    if (leaf === undefined) {
      if (inflight.length === 0) inflight.push(ctx.state.originId); // every trajectory ended: widen the root
      break;
    }
    inflight.push(leaf);
  }
  if (inflight.length === 0) {
    ctx.state.stop = { kind: 'maxRollouts', message: `${algo.rollouts} rollouts done (maxRollouts ${ctx.options.maxRollouts})` };
    return false;
  }
  const levels = await ctx.expandRound(inflight);
  const expanded = inflight.splice(0, levels.length).map((id, i) => ({ id, children: levels[i]! }));
  for (const { children } of expanded) {
    const solution = firstSolution(ctx, children);
    if (solution !== undefined) return markSolved(ctx, solution);
  }
  const ended: number[] = [];
  const continuing: number[] = [];
  for (const { id, children } of expanded) {
    const next = best(ctx, children);
    if (next !== undefined && !ctx.isTerminal(next)) {
      continuing.push(next);
      continue;
    }
    const end = next ?? id;
    ctx.tree.backpropagate(end, { visits: 1, value: ctx.node(end).score ?? 0 });
    algo.rollouts += 1;
    if (ctx.isTerminal(end)) ended.push(end);
  }
  const reflections = await Promise.all(ended.map((end) => ctx.reflection(end)));
  for (const text of reflections) if (text) ctx.addReflection(text);
  algo.inflight = [...continuing, ...inflight];
  return true;
}

/**
 * Descends from the root (a fork: its node) by UCT; undefined when no non-terminal leaf is left.
 * `busy`: leaves other rollouts are expanding (parallel MCTS) — never selected again, and each
 * counts as a lost visit on its path (virtual loss), so the next selection looks elsewhere.
 */
function select(ctx: SearchOps, busy: number[] = []): number | undefined {
  const losses = virtualLosses(ctx, busy);
  let id = ctx.state.originId;
  for (;;) {
    const node = ctx.node(id);
    if (node.children.length === 0) return ctx.isTerminal(id) || busy.includes(id) ? undefined : id;
    let bestId: number | undefined;
    let bestScore = -Infinity;
    for (const child of node.children) {
      if (ctx.isTerminal(child) || !hasOpenLeaf(ctx, child, busy)) continue;
      const lost = losses.get(child) ?? 0;
      const score = lost === 0 ? valueUct(ctx.tree, child, ctx.options.exploration) : withVirtualLoss(ctx, child, losses);
      if (score > bestScore) {
        bestId = child;
        bestScore = score;
      }
    }
    if (bestId === undefined) return undefined;
    id = bestId;
  }
}

/** Visits lost per node: one for every busy leaf below it (or at it). */
function virtualLosses(ctx: SearchOps, busy: number[]): Map<number, number> {
  const losses = new Map<number, number>();
  for (const leaf of busy) for (const node of ctx.tree.pathToRoot(leaf)) losses.set(node.id, (losses.get(node.id) ?? 0) + 1);
  return losses;
}

/**
 * UCT as if `losses` more visits had returned nothing: the value (an unvisited node's own score
 * counting as one visit) averaged over visits + losses, the bonus over the same, with the
 * parent's visits + losses.
 */
function withVirtualLoss(ctx: SearchOps, id: number, losses: Map<number, number>): number {
  const node = ctx.node(id);
  const lost = losses.get(id) ?? 0;
  const n = Math.max(node.visits, 1);
  const mean = ((node.visits === 0 ? (node.score ?? 0) : ctx.tree.mean(id)) * n) / (n + lost);
  if (node.parent === null) return mean;
  const parentVisits = ctx.node(node.parent).visits + (losses.get(node.parent) ?? 0);
  return mean + ctx.options.exploration * Math.sqrt(Math.log(Math.max(parentVisits, 1)) / (n + lost));
}

/** Whether the subtree has a leaf that is not terminal and not busy (somewhere left to search). */
function hasOpenLeaf(ctx: SearchOps, id: number, busy: number[] = []): boolean {
  const stack = [id];
  while (stack.length > 0) {
    const node = ctx.node(stack.pop()!);
    if (ctx.isTerminal(node.id)) continue;
    if (node.children.length === 0) {
      if (!busy.includes(node.id)) return true;
      continue;
    }
    stack.push(...node.children);
  }
  return false;
}

/** The best of freshly expanded children (ties: the first). */
function best(ctx: SearchOps, ids: number[]): number | undefined {
  let top: number | undefined;
  for (const id of ids) if (top === undefined || (ctx.node(id).score ?? 0) > (ctx.node(top).score ?? 0)) top = id;
  return top;
}

function markSolved(ctx: SearchOps, id: number): false {
  for (const node of ctx.tree.pathToRoot(id)) ctx.tree.setData(node.id, { ...node.data, solved: true });
  ctx.tree.backpropagate(id, { visits: 1, value: ctx.node(id).score ?? 0 });
  return solved(ctx, id);
}
