import type { EvaluateResult } from '../../schemas/agent-activities';
import { traced } from '../../trace-span';
import { evaluationData, noteEvaluation } from '../evaluation-failures';
import { markWritten, trajectoryInput } from '../path-book';
import { spend } from './budget-plan';
import type { SearchEnv } from './search-ops';

/**
 * Scores one trajectory with the run's evaluator (an activity), counting it — and, for the LLM
 * evaluator, its model call — against the search. A failed evaluation is noted on the state
 * (see `SearchBehaviour.evaluationFailures`) and returned with `failed` set.
 *
 * @example
 * const { score } = await runEvaluation(env, trajectoryInput(tree, 3), 'evaluate n3');
 */
export async function runEvaluation(env: SearchEnv, trajectory: ReturnType<typeof trajectoryInput>, summary: string): Promise<EvaluateResult> {
  const { state, options } = env;
  const evaluation = await env.port.evaluate({ evaluator: options.evaluator, trajectory }, summary);
  state.counters.evaluations += 1;
  if (options.evaluator.name === 'llm') state.counters.llmCalls += 1;
  spend(env, evaluation.usage);
  const failed = noteEvaluation(state, options.evaluator.name, evaluation, env.behaviour.evaluationFailures);
  return failed === undefined ? { ...evaluation, failed: undefined } : { ...evaluation, failed };
}

/**
 * Evaluates one node after the fact (chain-of-thought's final answer, a person's replacement
 * step) and records its score on the tree.
 *
 * @example
 * await evaluateNode(env, finalId);
 */
export async function evaluateNode(env: SearchEnv, nodeId: number): Promise<void> {
  const tree = env.state.tree;
  const input = trajectoryInput(tree, nodeId);
  const span = env.port.startSpan?.('grove.evaluate', { 'grove.node.id': nodeId });
  const evaluation = await traced(span, () => runEvaluation(env, input, `evaluate n${nodeId}`), (e) => ({ 'grove.score': e.score }));
  markWritten(tree, nodeId, input);
  tree.setScore(nodeId, compactScore(evaluation.score));
  tree.setData(nodeId, { ...tree.node(nodeId).data, ...evaluationData(evaluation) });
}

/** Node state stays small (it travels through continue-as-new): scores in [0, 1] to 4 decimals (texts: see `evaluationData`). */
export function compactScore(x: number): number {
  return Number.isFinite(x) ? Math.round(Math.min(1, Math.max(0, x)) * 1e4) / 1e4 : 0;
}
