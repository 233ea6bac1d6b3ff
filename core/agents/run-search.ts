import { bestNode, maxScore } from './best-node';
import type { SearchContext } from './search-context';
import { StopSearch } from './search/budget-plan';
import { giveUpIfAllFailed } from './evaluation-failures';
import type { SearchStop } from './search-state';

export interface SearchOutcome {
  bestId: number;
  score: number;
  isSolution: boolean;
  stop: SearchStop;
}

/**
 * Drives a search to its end, one algorithm step at a time. Before each step `beforeStep` may
 * ask to hand over (a workflow continues-as-new there; the state is plain JSON between steps),
 * to stop for a reason of its own, or steer the search (a rewind; a person's stop, which it sets
 * on the state: the search then ends before the step).
 * A budget that runs out ends the search with the best node found so far.
 *
 * @example
 * const outcome = await runSearch(ctx, { beforeStep: async () => (workflowInfo().continueAsNewSuggested ? 'handover' : 'continue') });
 */
export async function runSearch(
  ctx: SearchContext,
  hooks: { beforeStep?: () => Promise<'continue' | 'handover' | SearchStop> } = {},
): Promise<SearchOutcome | 'handover'> {
  const algorithm = ctx.algorithm;
  if (ctx.state.counters.steps === 0 && Object.keys(ctx.state.algo).length === 0) algorithm.start(ctx);
  while (!ctx.state.stop) {
    const next = hooks.beforeStep ? await hooks.beforeStep() : 'continue';
    if (next === 'handover') return 'handover';
    if (next !== 'continue') {
      ctx.state.stop = next;
      break;
    }
    if (ctx.state.stop) break; // a person stopped the search between steps
    try {
      const more = await algorithm.step(ctx);
      if (!more && !ctx.state.stop) ctx.state.stop = { kind: 'exhausted', message: 'the search ended' };
    } catch (err) {
      if (!(err instanceof StopSearch)) throw err;
      ctx.state.stop = err.stop;
    }
    ctx.state.counters.steps += 1;
    ctx.port.onStep?.({
      nodes: ctx.tree.size,
      bestScore: maxScore(ctx.tree),
      llmCalls: ctx.state.counters.llmCalls,
      tokens: ctx.state.usage.totalTokens,
      step: ctx.state.counters.steps,
    });
  }
  if (ctx.behaviour.evaluationFailures) giveUpIfAllFailed(ctx.state, ctx.options.evaluator.name, undefined, true);
  return outcome(ctx);
}

/** The search's answer: its solution, else Saplings' best node (finished answers first). */
export function outcome(ctx: SearchContext): SearchOutcome {
  const bestId = ctx.state.solutionId ?? bestNode(ctx.tree).id;
  return { bestId, score: ctx.node(bestId).score ?? 0, isSolution: ctx.isSolution(bestId), stop: ctx.state.stop! };
}

