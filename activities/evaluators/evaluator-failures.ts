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
