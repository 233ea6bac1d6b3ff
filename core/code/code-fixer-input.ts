import { z } from 'zod';
import { VerdictSchema } from '../verdicts/verdict';
import { CODE_LANGUAGES, codeOutcomeSchema } from './code-outcome';
import { RetryConfigSchema } from '../schemas/retry-config';
import { PromptInputSchema } from '../schemas/prompt-input';
import { MessageSchema, UsageSchema } from '../schemas/messages';

/**
 * Input of `code-fixer` runs (the ready-made workflow function `codeFixer`): the task, the
 * language, optional tests, and the seeds' AICodeFixer settings (rounds, templates, feedback
 * function). Validated by the client before the run starts and again by the workflow.
 */
export const CodeFixerInputSchema = PromptInputSchema.extend({
  language: z.enum(CODE_LANGUAGES).describe('The language the code is written and run in: js, ts or python.'),
  testCode: z.string().max(200_000).optional().describe('Tests run after each attempt (Python: assert statements and test_* functions; JS/TS: assert(...) and test(name, fn)); each assert counts.'),
  numRounds: z.number().int().min(0).max(50).default(3).describe("Feedback rounds after the first answer (the seeds' num_rounds)."),
  templates: z
    .object({
      first: z.string().refine((t) => t.includes('{{feedback}}'), { message: 'must contain the {{feedback}} placeholder' }).describe('The message after the first failed attempt; {{feedback}} is replaced by the feedback.'),
      later: z.string().refine((t) => t.includes('{{feedback}}'), { message: 'must contain the {{feedback}} placeholder' }).describe('The message after every later failed attempt.'),
    })
    .strict()
    .optional()
    .describe('Feedback messages for the first and the later rounds; each must contain {{feedback}}. Default: reflect, critique, improve.'),
  feedback: z.enum(['aicodefixer', 'error']).default('aicodefixer').describe("Feedback function: 'aicodefixer' (error, failing line, tests, output) or 'error' (the error only)."),
  maxFeedbackLength: z.number().int().min(64).max(20_000).default(512).describe('Feedback length cap in characters.'),
  timeoutMs: z.number().int().min(10).max(600_000).default(5_000).describe('Wall-time limit of each run in the sandbox.'),
  memoryMb: z.number().int().min(8).max(4_096).default(128).describe('Memory limit of each run in the sandbox.'),
  config: RetryConfigSchema.partial().optional().describe("The retry configuration (the seeds' RetryConfig): budget, samples, scoring."),
  seed: z.number().int().optional().describe('Seed for Thompson sampling: the same seed and model answers give the same tree.'),
})
  .strict()
  .superRefine((v, ctx) => {
    if ((v.prompt === undefined) === (v.messages === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'give exactly one of `prompt` or `messages`' });
    }
  });
export type CodeFixerInput = z.input<typeof CodeFixerInputSchema>;

export const CodeFixerResultSchema = z.object({
  success: z.boolean().describe('Whether an attempt ran without error and passed every test.'),
  verdict: VerdictSchema.optional().describe("Who decided `success`: the tests, run in grove's sandbox ('tests'); without `testCode` only running the code without an error was checked, so not verified."),
  code: z.string().optional().describe('The code of the chosen attempt (the passing one, else the best by the scoring).'),
  outcome: codeOutcomeSchema.optional().describe('What running that code produced.'),
  attempts: z.array(z.object({ sampleId: z.number().int().describe('Its sample in `tree`.'), ok: z.boolean().describe('Whether it passed.'), kind: z.string().optional().describe('Its error kind, when it failed.'), tests: z.object({ passed: z.number().int().describe('Assertions that held.'), total: z.number().int().describe('Assertions run.') }).optional().describe('Its test tally.'), cut: z.literal(true).optional().describe('Its answer stopped at the token limit (`max_tokens`): cut, not finished.') })).describe('Every attempt run in the sandbox: its sample, whether it passed, its error kind, whether its answer was cut.'),
  activeSampleId: z.number().int().describe('The sample of the chosen attempt (a node id of `tree`).'),
  conversation: z.array(MessageSchema).describe("That sample's conversation: task, answers and feedback."),
  calls: z.number().int().describe('Samples drawn (a request for n completions draws n): the unit of `config.maxCalls`.'),
  modelCalls: z.number().int().optional().describe('Requests a model answered for the run, LLM-judge checks included (absent from runs started before grove counted them).'),
  retries: z.number().int().describe('Feedback rounds made.'),
  usage: UsageSchema.describe('Tokens used by every model call of the run.'),
  tree: z.unknown().describe('The sample tree as compact JSON.'),
  treeText: z.string().describe("The tree as the seeds' print_samples text."),
});
export type CodeFixerResult = z.infer<typeof CodeFixerResultSchema>;
