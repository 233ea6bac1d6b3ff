import { patched, proxyActivities, proxyLocalActivities, type ActivityOptions } from '@temporalio/workflow';
import type { EvaluatorActivities } from '../../activities/evaluators/evaluator-activities';
import type { CallReuse } from '../../core/hash/call-ledger';
import type { EvaluateInput, EvaluateResult } from '../../core/schemas/agent-activities';
import { fastStepOptions } from './activity-options';
import { runLedger } from './run-ledger';

/** Patch id: custom evaluators declared `fast` run as local activities (runs recorded before it replay as they ran). */
export const FAST_EVALUATORS = 'grove-fast-evaluators';
/**
 * Patch id: a failed evaluation (a custom evaluator's bad score or throw, an LLM judge with no
 * usable score) fails its node, not the run — unless every evaluation fails (runs recorded
 * before failed at the first bad score).
 */
export const EVALUATION_FAILURES = 'grove-evaluation-failures';

/**
 * The workflow's side of the evaluator activities. The LLM evaluator is a model call, so it
 * stays a regular activity (heartbeats, cancellation, retries on any worker). A custom evaluator
 * declared `fast` (`defineEvaluator({ fast: true })`) runs as a local activity on the worker
 * holding the run — recorded in history the same way, without a trip through a task queue —
 * unless the run sends evaluations to a queue of their own. The worker is asked once per run
 * (itself a local activity: a registry read) whether the evaluator is fast, before the first
 * evaluation; that also fails an unknown evaluator name at once.
 *
 * @example
 * const evaluate = evaluatorPort(options, options.taskQueue !== undefined);
 * const { score } = await evaluate(input, 'evaluate n3 candidate 1/2');
 */
export function evaluatorPort(options: ActivityOptions, ownQueue: boolean) {
  const regular = proxyActivities<EvaluatorActivities>(options);
  const localOptions = fastStepOptions(options);
  const local = proxyLocalActivities<EvaluatorActivities>(localOptions);
  // Per evaluator name: whether it is fast, or the question under way. Once known — and always
  // for the LLM evaluator, a queue of its own, or a run recorded before the patch — an
  // evaluation is scheduled synchronously, in the same order as the calls that ask for it.
  const known = new Map<string, boolean | Promise<boolean>>();
  const run = (fast: boolean, input: EvaluateInput, summary: string) =>
    fast ? local.groveEvaluate.executeWithOptions({ ...localOptions, summary }, [input]) : regular.groveEvaluate.executeWithOptions({ ...options, summary }, [input]);
  return (input: EvaluateInput, summary: string, reuse?: CallReuse): Promise<EvaluateResult> => {
    const keyed = runLedger().keyed('groveEvaluate', input, reuse);
    const name = input.evaluator.name;
    let fast = known.get(name);
    if (fast === undefined) {
      fast =
        name === 'llm' || ownQueue || !patched(FAST_EVALUATORS)
          ? false
          : local.groveDescribeEvaluator.executeWithOptions({ ...localOptions, summary: `describe evaluator ${name}` }, [{ name }]).then((d) => {
              known.set(name, d.fast);
              return d.fast;
            });
      known.set(name, fast);
    }
    return typeof fast === 'boolean' ? run(fast, keyed, summary) : fast.then((f) => run(f, keyed, summary));
  };
}
