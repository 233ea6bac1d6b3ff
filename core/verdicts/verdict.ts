import { z } from 'zod';

/**
 * Who decided a run's verdict ("success", "solved", "tests passed"):
 * - `tests` — tests run in grove's sandbox (the code fixer, the `code-tests` evaluator);
 * - `checks` — airetry's checks (deterministic, recomputable from the stored output; an
 *   `llmJudge` check among them is listed in `judges`);
 * - `evaluator` — a custom evaluator registered on the workers (its `evaluator` name);
 * - `judge` — an LLM judge (grove's `llm` evaluator; its `model`).
 */
export const VERDICT_DECIDERS = ['tests', 'checks', 'evaluator', 'judge'] as const;
export type VerdictDecider = (typeof VERDICT_DECIDERS)[number];

/** An LLM that judged (an `llm` evaluator, an `llmJudge` check): which model, and whether it judged its own answer. */
export const JudgeSchema = z.object({
  model: z.string().describe("The judging model, as named in the run (or as the provider reported it); `the worker's default model` when none was named."),
  selfJudged: z.boolean().describe('The judge is the model that wrote the answer it judged.'),
  check: z.string().optional().describe('The airetry check it decided (`llmJudge` checks).'),
});
export type Judge = z.infer<typeof JudgeSchema>;

/**
 * How a result's verdict was reached, published in every result schema that carries one
 * (airetry, agent, code fixer). One shape for every run kind, designed so a caller can decide
 * whether to trust a "success" without knowing how grove works inside.
 *
 * `verified` is true when no model's opinion decided it: tests, deterministic checks or a
 * custom evaluator (code the run's owner registered). A verdict an LLM judged is never verified
 * — least of all one the answering model judged itself (`selfJudged`).
 */
export const VerdictSchema = z
  .object({
    by: z.enum(VERDICT_DECIDERS).describe("Who decided: 'tests', 'checks' (airetry), 'evaluator' (a custom one) or 'judge' (an LLM)."),
    evaluator: z.string().optional().describe("The evaluator's name (by 'evaluator', and 'tests' when an evaluator ran them, e.g. `code-tests`)."),
    model: z.string().optional().describe("by 'judge': the judging model."),
    selfJudged: z.boolean().optional().describe("by 'judge': the judge is the model that wrote the answer."),
    judges: z.array(JudgeSchema).optional().describe("by 'checks': the LLM judges among the checks (`llmJudge`), when there are any."),
    verified: z.boolean().describe("No model's opinion decided it: tests, deterministic checks or a custom evaluator."),
  })
  .describe('How the verdict was reached: who decided, and whether it is verified or a model judged it.');
export type Verdict = z.infer<typeof VerdictSchema>;

/** Said of a judge when the run named no model: the workers' `GROVE_MODEL`. */
export const DEFAULT_MODEL_NAME = "the worker's default model";

/**
 * Whether a judge judged its own model's answer. Compared by the names the provider reported
 * when both are known (a run that names no model gets the worker's default for both), else by
 * the names the run asked for; two unnamed models are the same default.
 *
 * @example
 * isSelfJudged({ answer: 'smollm2', judge: 'smollm2' }); // true
 * isSelfJudged({ judge: 'gpt-4o' });                    // false: the answer came from the default model, which is not known to be gpt-4o
 */
export function isSelfJudged(models: { answer?: string; judge?: string; reportedAnswer?: string; reportedJudge?: string }): boolean {
  if (models.reportedAnswer !== undefined && models.reportedJudge !== undefined) return models.reportedAnswer === models.reportedJudge;
  return models.answer === models.judge;
}

/**
 * The verdict of an LLM judge (grove's `llm` evaluator).
 *
 * @example
 * judgeVerdict({ answer: 'smollm2', judge: 'smollm2' }); // { by: 'judge', model: 'smollm2', selfJudged: true, verified: false }
 */
export function judgeVerdict(models: { answer?: string; judge?: string; reportedAnswer?: string; reportedJudge?: string }): Verdict {
  return { by: 'judge', model: models.judge ?? models.reportedJudge ?? DEFAULT_MODEL_NAME, selfJudged: isSelfJudged(models), verified: false };
}

/**
 * The verdict of an agent's evaluator: an LLM judge (`llm`), tests (`code-tests`, grove's
 * sandbox), or a custom evaluator by name.
 *
 * @example
 * evaluatorVerdict('multiplication-checker'); // { by: 'evaluator', evaluator: 'multiplication-checker', verified: true }
 * evaluatorVerdict('code-tests', {}, 0.5);      // { by: 'tests', evaluator: 'code-tests', verified: false }: half the tests failed
 */
export function evaluatorVerdict(name: string, models: Parameters<typeof judgeVerdict>[0] = {}, score?: number): Verdict {
  if (name === 'llm') return judgeVerdict(models);
  // The tests verify an answer only when it passed every one of them: a threshold below 1 may
  // call a partial pass solved, but not verified by tests (its score says how many passed).
  if (name === CODE_TESTS_EVALUATOR) return { by: 'tests', evaluator: name, verified: score === undefined || score >= 1 };
  return { by: 'evaluator', evaluator: name, verified: true };
}

/** grove's built-in evaluator that runs the trajectory's code with tests in the sandbox. */
export const CODE_TESTS_EVALUATOR = 'code-tests';
