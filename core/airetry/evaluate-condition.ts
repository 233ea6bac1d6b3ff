import { selectBest } from '../select';
import type { AICall } from './ai-call';

/** A check on a call's active sample. It must be deterministic (it runs in the workflow); anything needing I/O goes through an activity (e.g. `llmJudge`). */
export type Condition<T> = (call: AICall<T>) => boolean | Promise<boolean>;
/** Feedback for a failed check: fixed text, or computed from the call (its active sample is the one that failed). */
export type Feedback<T> = string | ((call: AICall<T>) => string | Promise<string>);

export interface EvaluateOptions {
  /** Check every sample that passed so far (default), or only the active one. */
  evaluateAll?: boolean;
  /** Compute feedback only for the sample that will be retried from (for costly feedback). */
  feedbackExpensive?: boolean;
}

/**
 * The seeds' `evaluate_condition!`: checks the samples still in the running (those that passed
 * every earlier check, plus the active one), in pre-order. A failing sample is marked failed
 * and gets the feedback appended; every check is backpropagated (a win when it passed). Returns
 * whether some sample passed, and the sample to continue from: the last one that passed, else
 * the best by the configured scoring.
 *
 * Departure from the seeds: with `feedbackExpensive`, the feedback is computed while the
 * selected sample is active (the original used whichever sample was evaluated last).
 *
 * @example
 * const { passed, sampleId } = await evaluateCondition(call, (c) => c.output === 'yellow', 'Wrong color.');
 */
export async function evaluateCondition<T>(
  call: AICall<T>,
  condition: Condition<T>,
  feedback: Feedback<T> = '',
  opts: EvaluateOptions = {},
): Promise<{ passed: boolean; sampleId: number }> {
  const { evaluateAll = true, feedbackExpensive = false } = opts;
  const tree = call.samples;
  const saved = call.activeSampleId;
  const candidates = evaluateAll ? tree.preorder() : [tree.node(saved)];
  let passedId: number | undefined;
  try {
    for (const node of candidates) {
      if (node.success !== true && node.id !== saved) continue;
      call.activeSampleId = node.id;
      const passed = (await condition(call)) === true;
      if (passed) {
        passedId = node.id;
      } else {
        tree.setSuccess(node.id, false);
        if (!feedbackExpensive) {
          const text = await feedbackText(call, feedback);
          if (text !== '') tree.setFeedback(node.id, `${tree.node(node.id).feedback}\n${text}`);
        }
      }
      tree.backpropagate(node.id, { wins: passed ? 1 : 0, visits: 1 });
    }
    if (passedId !== undefined) return { passed: true, sampleId: passedId };
    const selected = selectBest(tree, call.config.scoring, { ordering: call.config.ordering, rng: call.rng });
    if (feedbackExpensive) {
      call.activeSampleId = selected.id;
      const text = await feedbackText(call, feedback);
      if (text !== '') tree.setFeedback(selected.id, `\n${text}`);
    }
    return { passed: false, sampleId: selected.id };
  } finally {
    call.activeSampleId = saved;
  }
}

async function feedbackText<T>(call: AICall<T>, feedback: Feedback<T>): Promise<string> {
  return typeof feedback === 'function' ? await feedback(call) : feedback;
}
