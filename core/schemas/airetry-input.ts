import { z } from 'zod';
import { CheckSpecSchema } from '../airetry/checks';
import { RetryConfigSchema } from './retry-config';
import { PromptInputSchema } from './generate';
import { MessageSchema, UsageSchema } from './messages';
import { ForkOriginSchema } from '../runs/fork';

/**
 * Input of the ready-made `airetry` workflow: a prompt, the model and its options, the retry
 * configuration, and the ordered checks that the answer must pass (each one airetry round in
 * the seeds' sense). Validated by the client before the run starts, and again by the workflow.
 */
export const AiretryInputSchema = PromptInputSchema.extend({
  /** 'generate' (text, default), 'extract' (JSON matching `schema`) or 'classify' (one of `choices`). */
  kind: z.enum(['generate', 'extract', 'classify']).default('generate'),
  /** JSON Schema of the output, for kind 'extract'. */
  schema: z.record(z.string(), z.unknown()).optional(),
  /** The choices, for kind 'classify'. */
  choices: z.array(z.string().min(1)).min(2).optional(),
  config: RetryConfigSchema.partial().optional(),
  checks: z.array(CheckSpecSchema).min(1),
  /** Seed for Thompson sampling: the same seed (and model answers) gives the same tree. */
  seed: z.number().int().optional(),
  /** Fail the run with `GroveRetryBudgetExhausted` when a check is still failing at the end of the budget. */
  throwOnBudget: z.boolean().optional(),
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
      try {
        z.fromJSONSchema(v.schema as Parameters<typeof z.fromJSONSchema>[0]);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['schema'], message: `not a usable JSON Schema (${(err as Error).message})` });
      }
    }
  });
export type AiretryInput = z.input<typeof AiretryInputSchema>;

export const CheckOutcomeSchema = z.object({ name: z.string(), passed: z.boolean() });

export const AiretryResultSchema = z.object({
  /** The active sample's output: text, the parsed JSON (extract), or the choice (classify). */
  output: z.unknown(),
  /** Whether every check passed. */
  success: z.boolean(),
  checks: z.array(CheckOutcomeSchema),
  activeSampleId: z.number().int(),
  conversation: z.array(MessageSchema),
  calls: z.number().int(),
  retries: z.number().int(),
  usage: UsageSchema,
  /** The sample tree as compact JSON (`SampleTree.fromJSON` reads it back). */
  tree: z.unknown(),
  /** The tree as the seeds' `print_samples` text. */
  treeText: z.string(),
});
export type AiretryResult = z.infer<typeof AiretryResultSchema>;
