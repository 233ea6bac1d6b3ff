import { z } from 'zod';

/**
 * Settings a resumed run may change for what it does from then on — never for what it already
 * did (those decisions are in its history and replay as they were). A reset cannot change a
 * run's input, so `grove resume --model ... --max-calls ...` hands these to the resumed run (see
 * docs/runs.md): the new model for every model call made after the resume point, a bigger budget
 * for the decisions still to come.
 *
 * Which fields apply depends on the workflow: `generate` takes `model`; `airetry` takes `model`,
 * `budget.maxCalls` (samples) and `budget.maxRetries`; `agent` takes `model`, `evaluatorModel`
 * and `budget.maxCalls` / `maxTokens` / `maxCostUsd` / `maxWallMs`.
 *
 * @example
 * RunOverridesSchema.parse({ model: 'gpt-4o-mini', budget: { maxCalls: 80 } });
 */
export const RunOverridesSchema = z.strictObject({
  model: z.string().min(1).optional().describe('The model for every model call made from the resume point on.'),
  evaluatorModel: z.string().min(1).optional().describe("agent: the LLM evaluator's model from the resume point on."),
  budget: z
    .strictObject({
      maxCalls: z.number().int().positive().optional().describe('Model calls (airetry: samples) the whole run may make.'),
      maxRetries: z.number().int().nonnegative().optional().describe('airetry: retries the whole run may make.'),
      maxTokens: z.number().int().positive().optional().describe('agent: tokens the whole run may spend.'),
      maxCostUsd: z.number().positive().optional().describe('agent: dollars the whole run may spend (needs `pricing`).'),
      maxWallMs: z.number().positive().optional().describe('agent: wall time from the start of the run, in milliseconds.'),
    })
    .optional(),
});
export type RunOverrides = z.infer<typeof RunOverridesSchema>;

/** Which override fields each ready-made workflow understands; anything else is rejected by name. */
export const OVERRIDES_BY_KIND = {
  generate: { top: ['model'], budget: [] },
  airetry: { top: ['model', 'budget'], budget: ['maxCalls', 'maxRetries'] },
  agent: { top: ['model', 'evaluatorModel', 'budget'], budget: ['maxCalls', 'maxTokens', 'maxCostUsd', 'maxWallMs'] },
} as const satisfies Record<string, { top: readonly string[]; budget: readonly string[] }>;

/**
 * The overrides fields a kind of run does not understand, named as options: `['--evaluator-model']`.
 *
 * @example
 * unsupportedOverrides('generate', { budget: { maxCalls: 3 } }); // ['budget.maxCalls']
 */
export function unsupportedOverrides(kind: keyof typeof OVERRIDES_BY_KIND, overrides: RunOverrides): string[] {
  const allowed = OVERRIDES_BY_KIND[kind];
  const bad: string[] = [];
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(allowed.top as readonly string[]).includes(key)) bad.push(key);
  }
  for (const [key, value] of Object.entries(overrides.budget ?? {})) {
    if (value !== undefined && (allowed.top as readonly string[]).includes('budget') && !(allowed.budget as readonly string[]).includes(key)) bad.push(`budget.${key}`);
  }
  return bad;
}

/** Where a reset's reason carries the overrides: the last line, `grove-overrides: {...}`. */
export const OVERRIDES_PREFIX = 'grove-overrides: ';

/**
 * The overrides a reset's reason carries, or undefined when it carries none (a reset made by
 * hand, or without changed settings). Invalid JSON or fields count as none: a reason is text
 * anyone may write.
 *
 * @example
 * overridesFromReason('grove resume ...\ngrove-overrides: {"model":"m"}'); // { model: 'm' }
 */
export function overridesFromReason(reason: string | null | undefined): RunOverrides | undefined {
  const line = (reason ?? '').split('\n').find((l) => l.startsWith(OVERRIDES_PREFIX));
  if (!line) return undefined;
  try {
    const parsed = RunOverridesSchema.safeParse(JSON.parse(line.slice(OVERRIDES_PREFIX.length)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

type Input = Record<string, unknown>;

/**
 * A ready-made workflow's input with `overrides` applied (the same shape, validated by the same
 * schema): how a resumed search carries its changed settings through continue-as-new, and how a
 * fork starts with a new model or budget.
 *
 * @example
 * withOverrides('agent', input, { budget: { maxCalls: 80 } }).budget; // { ...input.budget, maxCalls: 80 }
 */
export function withOverrides<T extends object>(kind: keyof typeof OVERRIDES_BY_KIND, input: T, overrides: RunOverrides): T {
  const out: Input = { ...(input as Input) };
  if (overrides.model !== undefined) out.model = overrides.model;
  const budget = Object.fromEntries(Object.entries(overrides.budget ?? {}).filter(([, v]) => v !== undefined));
  if (kind === 'airetry' && Object.keys(budget).length > 0) out.config = { ...((out.config as Input | undefined) ?? {}), ...budget };
  if (kind === 'agent') {
    if (Object.keys(budget).length > 0) out.budget = { ...((out.budget as Input | undefined) ?? {}), ...budget };
    const evaluator = (out.evaluator as Input | undefined) ?? { name: 'llm' };
    if (overrides.evaluatorModel !== undefined && evaluator.name === 'llm') out.evaluator = { ...evaluator, model: overrides.evaluatorModel };
  }
  return out as T;
}
