/**
 * grove's evaluators for the search agents: the built-in `llm` evaluator, custom evaluators
 * registered by name, and the `groveEvaluate` activity that runs them.
 *
 * @example
 * import { createEvaluatorActivities, defineEvaluator } from './activities/evaluators';
 * const activities = createEvaluatorActivities({ llm: llmConfigFromEnv(), store, evaluators: [myEvaluator] });
 */
export {
  defineEvaluator,
  runEvaluator,
  LLM_EVALUATOR_NAME,
  type EvaluatorContext,
  type EvaluatorDefinition,
  type EvaluatorOutput,
} from './define-evaluator';
export { EvaluatorFailure, NON_RETRYABLE_EVALUATOR_FAILURES } from '../../core/failures';
export {
  evaluateWithLlm,
  DEFAULT_EVALUATOR_PROMPT,
  EVALUATION_RESPONSE_FORMAT,
  EVALUATOR_DEFAULTS,
  type LlmEvaluatorOptions,
  type LlmEvaluatorSpec,
} from './llm-evaluator';
export { parseEvaluation, combineEvaluations, DEFAULT_SAMPLE_SCORE, type ParsedEvaluation, type CombinedEvaluation } from './parse-evaluation';
export { renderTrajectory, type RenderOptions } from './render-trajectory';
export { createEvaluatorActivities, type EvaluatorActivities, type EvaluatorActivityDeps } from './evaluator-activities';
