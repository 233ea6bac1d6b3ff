import { z } from 'zod';

/**
 * How airetry ranks samples: UCT (deterministic, explores via visit counts) or Thompson
 * sampling (a random draw from each node's Beta posterior).
 */
export type Scoring = { kind: 'uct'; exploration: number } | { kind: 'thompson'; alpha: number; beta: number };

const UctSchema = z
  .object({
    kind: z.literal('uct').describe('Upper confidence bound: deterministic, explores through visit counts.'),
    exploration: z.number().nonnegative().default(Math.SQRT2).describe('Exploration constant (√2 as in the seeds).'),
  })
  .strict();
const ThompsonSchema = z
  .object({
    kind: z.literal('thompson').describe("Thompson sampling: a draw from each sample's Beta posterior (seeded by the run's `seed`)."),
    alpha: z.number().positive().default(1).describe('Beta prior: pseudo-successes.'),
    beta: z.number().positive().default(1).describe('Beta prior: pseudo-failures.'),
  })
  .strict();

function describeKind(input: unknown): string {
  const kind = typeof input === 'object' && input !== null ? (input as { kind?: unknown }).kind : input;
  return JSON.stringify(kind) ?? String(kind);
}

/**
 * Scoring as JSON input: `{ kind: 'uct', exploration? }` (default √2), `{ kind: 'thompson',
 * alpha?, beta? }` (default 1, 1), or just `'uct'` / `'thompson'`.
 *
 * @example
 * ScoringSchema.parse('thompson'); // { kind: 'thompson', alpha: 1, beta: 1 }
 */
export const ScoringSchema: z.ZodType<Scoring, unknown> = z.preprocess(
  (v) => (v === 'uct' || v === 'thompson' ? { kind: v } : v),
  z.discriminatedUnion('kind', [UctSchema, ThompsonSchema], {
    error: (issue) => `unknown scoring ${describeKind(issue.input)}: expected 'uct' or 'thompson'`,
  }),
);

/**
 * UCT scoring; the default exploration constant is √2 as in the seeds.
 *
 * @example
 * selectBest(tree, uct(2));
 */
export function uct(exploration: number = Math.SQRT2): Scoring {
  return { kind: 'uct', exploration };
}

/**
 * Thompson sampling with a Beta(alpha, beta) prior (default uniform).
 *
 * @example
 * selectBest(tree, thompsonSampling(), { rng });
 */
export function thompsonSampling(alpha = 1, beta = 1): Scoring {
  return { kind: 'thompson', alpha, beta };
}
