/**
 * Changes to how a search spends, each of which a workflow turns on behind a patch so runs
 * recorded before keep deciding as they did.
 */
export interface SearchBehaviour {
  /**
   * Anytime budgets: when a whole expansion no longer fits in `maxCalls`, the last one asks for
   * fewer candidates (each scored by one LLM evaluation) instead of stopping with budget left.
   */
  anytime: boolean;
  /**
   * Expansions that run side by side (a beam level) attach their children in a fixed order
   * rather than as their calls finish, so node ids do not depend on timing.
   */
  orderedRounds: boolean;
  /**
   * Planned width (algorithms whose traits allow it — MCTS and greedy —, LLM evaluator, a
   * `maxCalls` budget): each expansion is the widest that still leaves enough calls to finish
   * the trajectory — one candidate per step down to `maxDepth`, plus one evaluation of the
   * answer. When not even one evaluated candidate leaves that, the step is a single unevaluated
   * candidate (only a finished answer is evaluated), as chain-of-thought does. A tight budget
   * then buys a finished answer with its best-chosen first steps rather than a wide tree that
   * stops halfway. `maxDepth` is the estimate on purpose: the depth of answers seen so far is
   * fooled by early guesses, and the task's real depth is not known.
   */
  plannedWidth: boolean;
  /**
   * A failed evaluation (a custom evaluator's bad score or throw, an LLM judge with no usable
   * score) fails that node, not the search: it is recorded on the node, which is never a
   * solution; the run fails, naming the evaluator, only when every evaluation failed.
   */
  evaluationFailures: boolean;
}

/** Every behaviour change on: what a run started today (and any in-process search) gets. */
export const CURRENT_BEHAVIOUR: SearchBehaviour = { anytime: true, orderedRounds: true, plannedWidth: true, evaluationFailures: true };
