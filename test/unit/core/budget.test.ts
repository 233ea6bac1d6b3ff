import {
  addUsage,
  budgetFromSpec,
  BudgetSpecSchema,
  type BudgetUsage,
  costOf,
  deadline,
  firstStop,
  InvalidArgumentError,
  InvalidConfigError,
  maxCalls,
  maxCostUsd,
  maxRetries,
  maxTokens,
  PricingSchema,
  scoreAtLeast,
  ZERO_USAGE,
} from '../../../core';

const usage = (over: Partial<BudgetUsage> = {}): BudgetUsage => ({
  calls: 0,
  retries: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  nowMs: 1_000,
  startedAtMs: 1_000,
  ...over,
});

describe('stop conditions', () => {
  it('maxCalls stops at n', () => {
    expect(maxCalls(12)(usage({ calls: 11 }))).toBeUndefined();
    expect(maxCalls(12)(usage({ calls: 12 }))).toEqual({ kind: 'maxCalls', message: 'Maximum calls reached (calls: 12/12).' });
  });

  it('maxRetries(0) stops at once; maxRetries(n) at n', () => {
    expect(maxRetries(0)(usage())?.kind).toBe('maxRetries');
    expect(maxRetries(2)(usage({ retries: 1 }))).toBeUndefined();
    expect(maxRetries(2)(usage({ retries: 2 }))?.message).toBe('Maximum retries reached (retries: 2/2).');
  });

  it('maxTokens counts prompt + completion', () => {
    expect(maxTokens(100)(usage({ promptTokens: 60, completionTokens: 39 }))).toBeUndefined();
    expect(maxTokens(100)(usage({ promptTokens: 60, completionTokens: 40 }))?.message).toBe(
      'Maximum tokens reached (tokens: 100/100).',
    );
  });

  it('maxCostUsd', () => {
    expect(maxCostUsd(0.1)(usage({ costUsd: 0.0999 }))).toBeUndefined();
    expect(maxCostUsd(0.1)(usage({ costUsd: 0.1 }))).toEqual({
      kind: 'maxCost',
      message: 'Maximum cost reached (cost: $0.1000/$0.1000).',
    });
  });

  it('deadline uses the caller clock', () => {
    expect(deadline(500)(usage({ startedAtMs: 1_000, nowMs: 1_499 }))).toBeUndefined();
    expect(deadline(500)(usage({ startedAtMs: 1_000, nowMs: 1_500 }))?.message).toBe('Deadline reached (elapsed: 500 ms/500 ms).');
  });

  it('scoreAtLeast needs a best score', () => {
    expect(scoreAtLeast(0.8)(usage())).toBeUndefined();
    expect(scoreAtLeast(0.8)(usage({ bestScore: 0.79 }))).toBeUndefined();
    expect(scoreAtLeast(0.8)(usage({ bestScore: 0.9 }))).toEqual({
      kind: 'scoreThreshold',
      message: 'Score threshold reached (best score: 0.9 >= 0.8).',
    });
  });

  it('reject invalid limits', () => {
    expect(() => maxCalls(0)).toThrow(InvalidArgumentError);
    expect(() => maxCalls(1.5)).toThrow('maxCalls must be an integer > 0, got 1.5');
    expect(() => maxRetries(-1)).toThrow('maxRetries must be an integer >= 0, got -1');
    expect(() => maxCostUsd(NaN)).toThrow(InvalidArgumentError);
    expect(() => deadline(-5)).toThrow(InvalidArgumentError);
    expect(() => scoreAtLeast(Infinity)).toThrow(InvalidArgumentError);
  });

  it('firstStop returns the first condition that fires, in order', () => {
    const u = usage({ calls: 5, retries: 5 });
    expect(firstStop([maxCalls(10), maxRetries(5), maxCalls(5)], u)?.kind).toBe('maxRetries');
    expect(firstStop([maxCalls(10)], u)).toBeUndefined();
    expect(firstStop([], u)).toBeUndefined();
  });
});

describe('budgetFromSpec', () => {
  it('builds conditions, score threshold first', () => {
    const conditions = budgetFromSpec({ maxCalls: 3, scoreAtLeast: 0.9, maxWallMs: 1000 });
    expect(conditions).toHaveLength(3);
    expect(firstStop(conditions, usage({ calls: 3, bestScore: 0.95 }))?.kind).toBe('scoreThreshold');
    expect(firstStop(conditions, usage({ calls: 3 }))?.kind).toBe('maxCalls');
    expect(firstStop(conditions, usage({ nowMs: 2_000 }))?.kind).toBe('deadline');
    expect(budgetFromSpec({})).toEqual([]);
  });

  it('covers every field', () => {
    const conditions = budgetFromSpec({ maxCalls: 1, maxRetries: 1, maxTokens: 1, maxCostUsd: 1, maxWallMs: 1, scoreAtLeast: 1 });
    expect(conditions).toHaveLength(6);
  });

  it('rejects unknown keys and bad values by name', () => {
    expect(() => budgetFromSpec({ maxCall: 3 } as never)).toThrow(InvalidConfigError);
    expect(() => budgetFromSpec({ maxCall: 3 } as never)).toThrow('invalid input: budget: Unrecognized key: "maxCall"');
    expect(() => budgetFromSpec({ maxCalls: 0 })).toThrow(/budget\.maxCalls: Too small/);
    expect(() => budgetFromSpec({ scoreAtLeast: 1.5 })).toThrow(/budget\.scoreAtLeast: Too big/);
    expect(BudgetSpecSchema.safeParse({ maxRetries: 0 }).success).toBe(true);
  });
});

describe('usage and cost', () => {
  it('costOf prices per million tokens', () => {
    const pricing = PricingSchema.parse({ inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 });
    expect(costOf({ promptTokens: 1000, completionTokens: 500 }, pricing)).toBeCloseTo(0.0075, 12);
    expect(PricingSchema.safeParse({ inputPerMTokUsd: -1, outputPerMTokUsd: 0 }).success).toBe(false);
  });

  it('addUsage accumulates into a new object', () => {
    const a = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const total = addUsage(addUsage(ZERO_USAGE, a), a);
    expect(total).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    expect(a.promptTokens).toBe(10);
    expect(ZERO_USAGE).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });
});
