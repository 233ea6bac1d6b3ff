import { z } from 'zod';
import { InvalidArgumentError } from './errors';
import { parseWith } from './schemas/errors';
import type { Usage } from './schemas/messages';

/**
 * What a search has spent so far. Time comes from the caller (workflow time), never from a
 * clock read inside core.
 */
export interface BudgetUsage {
  calls: number;
  retries: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  nowMs: number;
  startedAtMs: number;
  bestScore?: number;
}

export interface StopReason {
  kind: 'maxCalls' | 'maxRetries' | 'maxTokens' | 'maxCost' | 'deadline' | 'scoreThreshold';
  message: string;
}

/** A small predicate: a reason to stop, or undefined to go on. Compose several with {@link firstStop}. */
export type StopCondition = (usage: BudgetUsage) => StopReason | undefined;

function checkLimit(name: string, value: number, { integer = false, allowZero = false } = {}): void {
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) {
    const what = `${integer ? 'an integer' : 'a number'} ${allowZero ? '>= 0' : '> 0'}`;
    throw new InvalidArgumentError(`${name} must be ${what}, got ${String(value)}`);
  }
}

/**
 * Stop once `calls >= n` (model calls; with `n` samples per call, each sample counts).
 *
 * @example
 * firstStop([maxCalls(12)], usage)?.message; // 'Maximum calls reached (calls: 12/12).'
 */
export const maxCalls = (n: number): StopCondition => {
  checkLimit('maxCalls', n, { integer: true });
  return (u) => (u.calls >= n ? { kind: 'maxCalls', message: `Maximum calls reached (calls: ${u.calls}/${n}).` } : undefined);
};

/**
 * Stop once `retries >= n`; `maxRetries(0)` allows a single attempt (no retry), as the seeds'
 * `max_retries = 0`.
 *
 * @example
 * maxRetries(10)
 */
export const maxRetries = (n: number): StopCondition => {
  checkLimit('maxRetries', n, { integer: true, allowZero: true });
  return (u) =>
    u.retries >= n ? { kind: 'maxRetries', message: `Maximum retries reached (retries: ${u.retries}/${n}).` } : undefined;
};

/**
 * Stop once prompt + completion tokens reach `n`.
 *
 * @example
 * maxTokens(100_000)
 */
export const maxTokens = (n: number): StopCondition => {
  checkLimit('maxTokens', n, { integer: true });
  return (u) => {
    const tokens = u.promptTokens + u.completionTokens;
    return tokens >= n ? { kind: 'maxTokens', message: `Maximum tokens reached (tokens: ${tokens}/${n}).` } : undefined;
  };
};

/**
 * Stop once the spend reaches `usd` dollars.
 *
 * @example
 * maxCostUsd(0.5)
 */
export const maxCostUsd = (usd: number): StopCondition => {
  checkLimit('maxCostUsd', usd);
  return (u) =>
    u.costUsd >= usd
      ? { kind: 'maxCost', message: `Maximum cost reached (cost: $${u.costUsd.toFixed(4)}/$${usd.toFixed(4)}).` }
      : undefined;
};

/**
 * Stop once `ms` milliseconds have passed since `startedAtMs` (by the caller's clock).
 *
 * @example
 * deadline(10 * 60_000) // ten minutes of workflow time
 */
export const deadline = (ms: number): StopCondition => {
  checkLimit('deadline', ms);
  return (u) => {
    const elapsed = u.nowMs - u.startedAtMs;
    return elapsed >= ms ? { kind: 'deadline', message: `Deadline reached (elapsed: ${elapsed} ms/${ms} ms).` } : undefined;
  };
};

/**
 * Stop once the best evaluation score reaches `x` (a good-enough answer was found).
 *
 * @example
 * scoreAtLeast(0.9)
 */
export const scoreAtLeast = (x: number): StopCondition => {
  if (!Number.isFinite(x)) throw new InvalidArgumentError(`scoreAtLeast must be a finite number, got ${String(x)}`);
  return (u) =>
    u.bestScore !== undefined && u.bestScore >= x
      ? { kind: 'scoreThreshold', message: `Score threshold reached (best score: ${u.bestScore} >= ${x}).` }
      : undefined;
};

/**
 * The first condition (in list order) that says stop.
 *
 * @example
 * const stop = firstStop([scoreAtLeast(0.9), maxCalls(20)], usage);
 * if (stop) return { status: stop.kind, message: stop.message };
 */
export function firstStop(conditions: StopCondition[], usage: BudgetUsage): StopReason | undefined {
  for (const condition of conditions) {
    const reason = condition(usage);
    if (reason) return reason;
  }
  return undefined;
}

/** A budget as JSON input; every field optional, unknown fields rejected by name. */
export const BudgetSpecSchema = z
  .object({
    maxCalls: z.number().int().positive().optional().describe('Model calls the run may make (candidates, LLM evaluations, reflections).'),
    /** 0 is allowed: a single attempt, no retries. */
    maxRetries: z.number().int().nonnegative().optional().describe('Retries the run may make (0: a single attempt).'),
    maxTokens: z.number().int().positive().optional().describe('Prompt plus completion tokens the run may spend.'),
    maxCostUsd: z.number().positive().optional().describe('Dollars the run may spend (needs `pricing`).'),
    maxWallMs: z.number().positive().optional().describe('Workflow time from the start of the run, in milliseconds.'),
    scoreAtLeast: z.number().positive().max(1).optional().describe('Stop once a score at least this good is found.'),
  })
  .strict();
export type BudgetSpec = z.input<typeof BudgetSpecSchema>;

/**
 * Stop conditions for a budget spec. The score threshold comes first, so a run that both
 * succeeds and exhausts its budget reports the success; then calls, retries, tokens, cost,
 * wall time.
 *
 * @throws InvalidConfigError naming the bad field.
 * @example
 * const conditions = budgetFromSpec({ maxCalls: 20, maxCostUsd: 0.25 });
 */
export function budgetFromSpec(spec: BudgetSpec): StopCondition[] {
  const s = parseWith(BudgetSpecSchema, spec, 'budget');
  const out: StopCondition[] = [];
  if (s.scoreAtLeast !== undefined) out.push(scoreAtLeast(s.scoreAtLeast));
  if (s.maxCalls !== undefined) out.push(maxCalls(s.maxCalls));
  if (s.maxRetries !== undefined) out.push(maxRetries(s.maxRetries));
  if (s.maxTokens !== undefined) out.push(maxTokens(s.maxTokens));
  if (s.maxCostUsd !== undefined) out.push(maxCostUsd(s.maxCostUsd));
  if (s.maxWallMs !== undefined) out.push(deadline(s.maxWallMs));
  return out;
}

/** Prices in US dollars per million tokens. */
export const PricingSchema = z
  .object({
    inputPerMTokUsd: z.number().nonnegative().describe('US dollars per million prompt tokens.'),
    outputPerMTokUsd: z.number().nonnegative().describe('US dollars per million completion tokens.'),
  })
  .strict();
export type Pricing = z.infer<typeof PricingSchema>;

/**
 * The cost of some token usage.
 *
 * @example
 * costOf({ promptTokens: 1000, completionTokens: 500 }, { inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 }); // 0.0075
 */
export function costOf(usage: Pick<Usage, 'promptTokens' | 'completionTokens'>, pricing: Pricing): number {
  return (usage.promptTokens * pricing.inputPerMTokUsd + usage.completionTokens * pricing.outputPerMTokUsd) / 1_000_000;
}

/** No tokens used. */
export const ZERO_USAGE: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/**
 * Accumulates token usage (a new object).
 *
 * @example
 * total = addUsage(total, result.usage);
 */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
