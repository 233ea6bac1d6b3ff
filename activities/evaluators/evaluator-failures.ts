/**
 * Stable failure types of `groveEvaluate`. Workflows and callers match on these names
 * (`failure.cause.type`), so they never change. No imports: a workflow may import this file.
 */
export const EvaluatorFailure = {
  /** A custom evaluator threw, or returned a score outside [0, 1] or not a number. */
  Failed: 'GroveEvaluatorFailed',
  /** The evaluator name is not registered on the worker that ran the activity. */
  Unknown: 'GroveUnknownEvaluator',
  /** The evaluator spec itself is invalid (e.g. `nSamples: 0`); the workflow normally catches this first. */
  InvalidSpec: 'GroveInvalidInput',
} as const;

/** Evaluator failures that retrying cannot fix. */
export const NON_RETRYABLE_EVALUATOR_FAILURES: string[] = [
  EvaluatorFailure.Failed,
  EvaluatorFailure.Unknown,
  EvaluatorFailure.InvalidSpec,
];

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
