import { shorten } from '../conversation/preview';
import { GroveError } from '../errors';
import { EvaluatorFailure, RunFailure } from '../failures';
import type { EvaluateResult } from '../schemas/agent-activities';
import type { AgentNode } from './agent-node';
import type { SearchState } from './search-state';

/**
 * Every evaluation of the run failed — the evaluator is broken, not the candidates: the run fails
 * naming it, with the last reason.
 */
export class EvaluationsFailedError extends GroveError {
  static override readonly errorName = RunFailure.EvaluationsFailed;
}

/**
 * How many evaluations, all failed, a run makes before it gives up on its evaluator: a few, so
 * one unlucky answer does not end a search, and a broken evaluator does not spend the budget.
 */
export const EVALUATIONS_BEFORE_GIVING_UP = 3;

/** Node state stays small (it travels through continue-as-new): short texts. */
const REASON_CHARS = 100;

/**
 * What a node keeps of its evaluation: the reasoning (shortened), and why it failed when it did.
 *
 * @example
 * Object.assign(data, evaluationData(evaluation));
 */
export function evaluationData(evaluation: EvaluateResult): Pick<AgentNode, 'reasoning' | 'evaluationFailed'> {
  if (evaluation.failed === undefined) return { reasoning: shorten(evaluation.reasoning, REASON_CHARS) };
  return { reasoning: shorten(evaluation.reasoning || `evaluation failed: ${evaluation.failed}`, REASON_CHARS), evaluationFailed: evaluation.failed };
}

/**
 * Takes note of an evaluation: which model judged, and — when evaluation failures are handled
 * (a workflow's patch) — a failure, which the node will record; throws
 * {@link EvaluationsFailedError} once {@link EVALUATIONS_BEFORE_GIVING_UP} evaluations have all
 * failed. Returns the reason to record on the node, if the evaluation failed.
 *
 * @example
 * const failed = noteEvaluation(state, 'multiplication-checker', evaluation, true);
 */
export function noteEvaluation(state: SearchState, evaluator: string, evaluation: EvaluateResult, handled: boolean): string | undefined {
  if (evaluation.model) state.models.judge = evaluation.model;
  if (!handled || evaluation.failed === undefined) return undefined;
  state.counters.evaluationFailures = (state.counters.evaluationFailures ?? 0) + 1;
  const reason = shorten(evaluation.failed, REASON_CHARS);
  giveUpIfAllFailed(state, evaluator, reason, false);
  return reason;
}

/**
 * Fails the run when every evaluation it made failed: at once after
 * {@link EVALUATIONS_BEFORE_GIVING_UP} of them, or at the end of the search (`final`) after any.
 *
 * @example
 * giveUpIfAllFailed(state, 'llm', undefined, true); // at the end of a search
 */
export function giveUpIfAllFailed(state: SearchState, evaluator: string, reason: string | undefined, final: boolean): void {
  const failures = state.counters.evaluationFailures ?? 0;
  const { evaluations } = state.counters;
  if (failures === 0 || failures < evaluations || (!final && evaluations < EVALUATIONS_BEFORE_GIVING_UP)) return;
  const last = reason ?? lastReason(state);
  throw new EvaluationsFailedError(
    `every evaluation of this run failed (${failures} of ${evaluations}): evaluator "${evaluator}"${last ? `: ${last}` : ''}`,
  );
}

function lastReason(state: SearchState): string | undefined {
  let reason: string | undefined;
  for (const node of state.tree.preorder()) reason = node.data.evaluationFailed ?? reason;
  return reason;
}

/**
 * A custom evaluator's failure (`GroveEvaluatorFailed`: it threw, or returned a score that is
 * not a finite number in [0, 1]) as a failed evaluation: score 0, `failed` saying why. The
 * search records it on the node (never a solution) and goes on; any other error is not one and
 * gives `undefined` (rethrow it). Duck-typed through the cause chain, so it reads an
 * `ActivityFailure` in a workflow and the `ApplicationFailure` itself in process alike.
 *
 * @example
 * const evaluation = await evaluate(input).catch((err) => failedEvaluation(err) ?? Promise.reject(err));
 */
export function failedEvaluation(err: unknown): { score: number; reasoning: string; failed: string; usage: { promptTokens: number; completionTokens: number; totalTokens: number } } | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { type?: unknown }).type !== EvaluatorFailure.Failed) continue;
    return { score: 0, reasoning: '', failed: e.message, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } };
  }
  return undefined;
}
