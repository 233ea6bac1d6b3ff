import type { AICallPort } from '../../core/airetry/ports';
import { patchId } from '../patches';

/** Change id (airetry, code fixer): `GroveCalls` and the result's `modelCalls` count the requests a model answered, not samples. */
export const MODEL_CALLS = patchId('grove-model-calls');

/**
 * Counts the requests a model answers for a run whose own counter counts samples (airetry, the
 * code fixer: their `config.calls` is the seeds' budget unit, and a request for `n` completions
 * draws `n`). `GroveCalls` and the result's `modelCalls` are this count, so `grove list` and
 * `grove progress` say "model calls" of model calls for every kind (docs/runs.md, "The figures").
 *
 * @example
 * const counted = countModelCalls(workflowPort(input.llm));
 * const call = new AICall(prompt, { port: counted.port, ... });
 * const ok = await counted.judged(llmJudge(question)(call)); // a judge's call counts too
 * counted.calls(); // 3
 */
export function countModelCalls(port: AICallPort): { port: AICallPort; calls: () => number; judged: <T>(answer: T | Promise<T>) => Promise<T> } {
  let calls = 0;
  return {
    port: {
      ...port,
      chat: async (...args) => {
        const result = await port.chat(...args);
        calls += 1;
        return result;
      },
    },
    calls: () => calls,
    judged: async (answer) => {
      const value = await answer;
      calls += 1;
      return value;
    },
  };
}
