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
    retries: z.number().int().nonnegative().default(0),
    calls: z.number().int().nonnegative().default(0),
    maxRetries: z.number().int().nonnegative().default(10),
    maxCalls: z.number().int().nonnegative().default(99),
    retryDelayMs: z.number().int().nonnegative().default(0),
    nSamples: z.number().int().positive().default(1),
    scoring: ScoringSchema.default(uct()),
    ordering: z.enum(ORDERINGS as ['postorder', 'preorder']).default('postorder'),
    feedbackInplace: z.boolean().default(false),
    feedbackTemplate: z
      .string()
      .refine((t) => t.includes('{{feedback}}'), { message: 'must contain the {{feedback}} placeholder' })
      .default(FEEDBACK_TEMPLATE),
    temperature: z.number().nonnegative().default(0.7),
    catchErrors: z.boolean().default(false),
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
