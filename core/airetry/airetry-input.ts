import { z } from 'zod';
import { INPUT_LIMITS } from '../schemas/input-shape';
import { CheckSpecSchema, JsonSchemaSpec } from './checks';
import { RetryConfigSchema } from '../schemas/retry-config';
import { PromptInputSchema } from '../schemas/prompt-input';
import { MessageSchema, UsageSchema } from '../schemas/messages';
import { ForkOriginSchema } from '../runs/fork';
import { JudgeSchema, VerdictSchema } from '../verdicts/verdict';

/**
 * Input of the ready-made `airetry` workflow: a prompt, the model and its options, the retry
 * configuration, and the ordered checks that the answer must pass (each one airetry round in
 * the seeds' sense). Validated by the client before the run starts, and again by the workflow.
 */
export const AiretryInputSchema = PromptInputSchema.extend({
  /** 'generate' (text, default), 'extract' (JSON matching `schema`) or 'classify' (one of `choices`). */
  kind: z
    .enum(['generate', 'extract', 'classify'])
    .default('generate')
    .describe("'generate': a text answer; 'extract': JSON matching `schema`; 'classify': one of `choices`."),
  /** JSON Schema of the output, for kind 'extract'. */
  schema: z.record(z.string(), z.unknown()).optional().describe("JSON Schema of the output, for kind 'extract'."),
  /** The choices, for kind 'classify'. */
  choices: z.array(z.string().min(1)).min(2).max(INPUT_LIMITS.choices).optional().describe("The answers to choose from, for kind 'classify'."),
  config: RetryConfigSchema.partial().optional().describe('The retry configuration (the seeds\' RetryConfig, camelCase): budget, samples, scoring.'),
  checks: z
    .array(CheckSpecSchema)
    .min(1)
    .max(INPUT_LIMITS.checks)
    .describe('The checks the answer must pass, in order; each failing one is fed back and retried (one airetry round each).'),
  /** Seed for Thompson sampling: the same seed (and model answers) gives the same tree. */
  seed: z.number().int().optional().describe('Seed for Thompson sampling: the same seed and model answers give the same tree.'),
  /** Fail the run with `GroveRetryBudgetExhausted` when a check is still failing at the end of the budget. */
  throwOnBudget: z
    .boolean()
    .optional()
    .describe('Fail the run (GroveRetryBudgetExhausted) when a check still fails at the end of the budget, instead of returning success: false.'),
  /** Continue another run's sample tree from one of its samples instead of sampling the prompt afresh (`grove fork`). */
  fork: ForkOriginSchema.optional(),
})
  .strict()
  .superRefine((v, ctx) => {
    if ((v.prompt === undefined) === (v.messages === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'give exactly one of `prompt` or `messages`' });
    }
    if (v.kind === 'extract' && !v.schema) ctx.addIssue({ code: 'custom', path: ['schema'], message: "kind 'extract' needs a JSON Schema" });
    if (v.kind === 'classify' && !v.choices) ctx.addIssue({ code: 'custom', path: ['choices'], message: "kind 'classify' needs choices" });
    if (v.schema) {
      const checked = JsonSchemaSpec.safeParse(v.schema);
      if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: ['schema', ...issue.path], message: issue.message });
    }
  });
export type AiretryInput = z.input<typeof AiretryInputSchema>;

export const CheckOutcomeSchema = z.object({
  name: z.string().describe('The check: its `name`, else `<kind>#<index>`.'),
  kind: z.string().optional().describe("The check's kind (`regex`, `lowercase`, `llmJudge`...); absent in runs from before grove recorded it."),
  passed: z.boolean().describe('Whether the returned answer passes it (an `llmJudge` check: its judge said yes to that very answer).'),
  skipped: z.boolean().optional().describe('Not decided: the run was stopped by a person before a judge looked at the returned answer.'),
  sampleId: z.number().int().optional().describe('The sample whose answer was checked: `activeSampleId`, the returned one.'),
  outputSha256: z.string().optional().describe('SHA-256 (hex) of the answer text that was checked (the text, or a tool call\'s arguments), so `grove verify` can tell it checks the same answer.'),
  judge: JudgeSchema.optional().describe('`llmJudge` checks: the model that judged, and whether it judged its own answer.'),
});
export const AiretryResultSchema = z.object({
  /** The active sample's output: text, the parsed JSON (extract), or the choice (classify). */
  output: z.unknown().describe("The final answer: text, the parsed JSON (kind 'extract') or the choice (kind 'classify')."),
  /** Whether every check passed. */
  success: z.boolean().describe('Whether the returned answer passes every check.'),
  checks: z.array(CheckOutcomeSchema).describe('Each check and whether the returned answer passes it, with what was checked on which sample.'),
  verdict: VerdictSchema.optional().describe("Who decided `success`: the checks ('checks'), verified unless an `llmJudge` check is among them."),
  activeSampleId: z.number().int().describe('The sample whose answer is `output` (a node id of `tree`).'),
  conversation: z.array(MessageSchema).describe("That sample's conversation: prompt, feedback and answers, as OpenAI chat messages."),
  calls: z.number().int().describe('Samples drawn (a request for n completions draws n): the unit of `config.maxCalls`.'),
  modelCalls: z.number().int().optional().describe('Requests a model answered for the run, LLM-judge checks included (absent from runs started before grove counted them).'),
  retries: z.number().int().describe('Retries made.'),
  usage: UsageSchema.describe('Tokens used by every model call of the run.'),
  /** The sample tree as compact JSON (`SampleTree.fromJSON` reads it back). */
  tree: z.unknown().describe('The sample tree as compact JSON: `{"v":1,"next":N,"nodes":[[id, parent, data, success, wins, visits, valueSum, score, feedback], ...]}`.'),
  /** The tree as the seeds' `print_samples` text. */
  treeText: z.string().describe("The tree as the seeds' print_samples text."),
  /** Set when a person stopped the run (`stop` update): who, and why. */
  stopped: z.object({ by: z.string().describe('Who stopped it.'), reason: z.string().optional().describe('Why, when they said.') }).optional().describe('Set when a person stopped the run: who, and why.'),
  /** The human actions the run applied (rewind, feedback, stop), when there were any. */
  actions: z.array(z.unknown()).optional().describe('The human actions the run applied (rewind, feedback, stop): who, when, what.'),
});
export type AiretryResult = z.infer<typeof AiretryResultSchema>;
