import { z } from 'zod';
import { FEEDBACK_TEMPLATE } from '../feedback';
import { ScoringSchema, uct } from '../scoring/scoring';
import { ORDERINGS } from '../select';
import { parseWith } from './errors';

/**
 * airetry's settings, with the seeds' `RetryConfig` defaults in camelCase. `retries` and
 * `calls` are the running counters (they live in the config in the seeds too, so a config can
 * be carried from one retry call to the next). `retryDelayMs` is in milliseconds (the seeds
 * use seconds): workflow timers take milliseconds.
 */
export const RetryConfigSchema = z
  .object({
    retries: z.number().int().nonnegative().default(0).describe('Retries made so far (a counter; start at 0).'),
    calls: z.number().int().nonnegative().default(0).describe('Samples drawn so far (a counter; start at 0).'),
    maxRetries: z.number().int().nonnegative().default(10).describe('Retries the whole run may make (0: one attempt).'),
    maxCalls: z.number().int().nonnegative().default(99).describe('Samples the whole run may draw.'),
    retryDelayMs: z.number().int().nonnegative().default(0).describe('A durable pause before each retry, in milliseconds.'),
    nSamples: z.number().int().positive().default(1).describe('Samples per round (with `apiKwargs.n`, several per model call).'),
    scoring: ScoringSchema.default(uct()).describe("How the sample to retry from is chosen: UCT (`{\"kind\":\"uct\",\"exploration\":...}`) or Thompson sampling."),
    ordering: z
      .enum(ORDERINGS as ['postorder', 'preorder'])
      .default('postorder')
      .describe('Order in which samples are checked when several are evaluated.'),
    feedbackInplace: z.boolean().default(false).describe("Extend the prompt's last user message with the feedback instead of adding a new message."),
    feedbackTemplate: z
      .string()
      .refine((t) => t.includes('{{feedback}}'), { message: 'must contain the {{feedback}} placeholder' })
      .default(FEEDBACK_TEMPLATE)
      .describe('How feedback is worded to the model; must contain {{feedback}}.'),
    temperature: z.number().nonnegative().default(0.7).describe('Sampling temperature unless `apiKwargs.temperature` says otherwise.'),
    catchErrors: z.boolean().default(false).describe('Treat a failed model call as a failed sample to retry, instead of failing the run.'),
  })
  .strict();

export type RetryConfig = z.output<typeof RetryConfigSchema>;
export type RetryConfigInput = z.input<typeof RetryConfigSchema>;

/**
 * A full config from a partial one.
 *
 * @throws InvalidConfigError naming the field, e.g.
 *   `invalid input: config.maxRetries: Too small: expected number to be >=0`.
 * @example
 * const config = retryConfig({ maxRetries: 3, scoring: 'thompson' });
 */
export function retryConfig(partial: RetryConfigInput = {}): RetryConfig {
  return parseWith(RetryConfigSchema, partial, 'config');
}
