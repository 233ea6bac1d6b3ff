import { mapLimit } from '../map-limit';
import { exhausted, firstSolution, solved, type SearchAlgorithm } from './search-algorithm';

interface BeamState {
  beam: number[];
}

/**
 * Beam search (Tree-of-Thoughts style): expand every node of the beam (concurrently; the
 * children are attached in beam order, whatever order the calls finish in), then keep the `beamWidth` best non-terminal children as the next beam. When the budget cannot pay
 * for the whole level, only the best nodes it can pay for are expanded.
 */
export const beam: SearchAlgorithm = {
  traits: { candidatesPerStep: 'bFactor', evaluatesChildren: true, plannedWidth: false },

  start(ctx) {
    ctx.state.algo = { beam: [ctx.state.originId] } satisfies BeamState;
  },

  async step(ctx) {
    const algo = ctx.state.algo as unknown as BeamState;
    if (algo.beam.length === 0) return exhausted(ctx, 'the beam is empty: every trajectory ended without a solution');
    const affordable = affordableExpansions(ctx, algo.beam.length);
    if (affordable === 0) ctx.ensureBudget(ctx.expansionCalls());
    const ids = algo.beam.slice(0, affordable);
    const level = ctx.behaviour.orderedRounds ? await ctx.expandRound(ids) : await mapLimit(ids, algo.beam.length, (id) => ctx.expand(id));
    const children = level.flat();
    const solution = firstSolution(ctx, children);
    if (solution !== undefined) return solved(ctx, solution);
    algo.beam = children
      .filter((id) => !ctx.isTerminal(id))
      .map((id, order) => ({ id, order, score: ctx.node(id).score ?? 0 }))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, ctx.options.beamWidth)
      .map((c) => c.id);
    return true;
  },

  resume(ctx, nodeId) {
    const algo = ctx.state.algo as unknown as BeamState;
    algo.beam = ctx.isTerminal(nodeId) ? algo.beam.filter((id) => !ctx.node(id).abandoned) : [nodeId];
  },
};

function affordableExpansions(ctx: Parameters<typeof beam.step>[0], wanted: number): number {
  let n = wanted;
  while (n > 0 && ctx.budgetStop(n * ctx.expansionCalls())) n--;
  return n;
}
