import { z } from 'zod';
import { CODE_LANGUAGES, testScore } from '../../core/code/code-outcome';
import { codeFeedback } from '../../core/code/code-feedback';
import { extractCode } from '../../core/code/extract-code';
import { messageText, type Message } from '../../core/schemas/messages';
import { defineEvaluator } from '../evaluators/define-evaluator';
import { execCode } from './exec-code';

const OptionsSchema = z.object({
  language: z.enum(CODE_LANGUAGES),
  testCode: z.string().min(1),
  timeoutMs: z.number().int().min(10).max(600_000).optional(),
  memoryMb: z.number().int().min(8).max(4_096).optional(),
});

/**
 * grove's built-in `code-tests` evaluator (LATS on HumanEval): the score of a trajectory is the
 * fraction of the given tests its latest code passes, run in the sandbox — 1 only when all pass
 * and the tests ran to their end (see `testScore`; tests run apart from the code, which cannot fake them).
 * The code is the last fenced block an assistant wrote (or the last `run_code` call's code); no
 * code scores 0. The reasoning is the sandbox feedback, so MCTS reflections can quote it.
 * Options (the run's `evaluator.options`): `language`, `testCode`, optional `timeoutMs`, `memoryMb`.
 *
 * @example
 * { "evaluator": { "name": "code-tests", "options": { "language": "python", "testCode": "assert add(1, 2) == 3" } } }
 */
export const codeTestsEvaluator = defineEvaluator({
  name: 'code-tests',
  async run(trajectory, ctx) {
    const parsed = OptionsSchema.safeParse(ctx.options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`evaluator.options.${issue.path.join('.')}: ${issue.message}`);
    }
    const { language, testCode, timeoutMs, memoryMb } = parsed.data;
    const code = latestCode(trajectory, language);
    if (code === undefined) return { score: 0, reasoning: 'No code in the trajectory yet.' };
    const outcome = await execCode({ language, code, testCode, timeoutMs, memoryMb }, { signal: ctx.signal });
    return { score: testScore(outcome), reasoning: codeFeedback(outcome, { code, maxLength: 800 }) };
  },
});

function latestCode(trajectory: Message[], language: (typeof CODE_LANGUAGES)[number]): string | undefined {
  for (let i = trajectory.length - 1; i >= 0; i--) {
    const m = trajectory[i]!;
    if (m.role !== 'assistant') continue;
    const fromText = extractCode(messageText(m), language).code;
    if (fromText !== undefined) return fromText;
    for (const call of [...(m.tool_calls ?? [])].reverse()) {
      if (call.function.name !== 'run_code') continue;
      try {
        const args = JSON.parse(call.function.arguments) as { code?: unknown };
        if (typeof args.code === 'string') return args.code;
      } catch {
        // unparsable arguments: look further back
      }
    }
  }
  return undefined;
}
