import { z } from 'zod';
import { canonicalKind } from '../runs/run-kind-names';

/**
 * What an operator allows a single run to do, whoever starts it (the CLI, `GroveClient`, or any
 * Temporal client in any language): ceilings on spend, fan-out, delays and handovers, and the
 * task queues a run may send work to besides its own. A run whose input asks for more is
 * rejected — by the client before it starts, and by the workflow against its worker's policy —
 * with the field and the limit named. Budgets a run leaves out default to the ceiling, so no run
 * is unbounded.
 */
export const OperatorPolicySchema = z.strictObject({
  /** Model calls per run (airetry `config.maxCalls`, an agent's `budget.maxCalls`, evaluations and reflections included). */
  maxCalls: z.number().int().positive().default(1_000),
  /** Tokens per run (an agent's `budget.maxTokens`). */
  maxTokens: z.number().int().positive().default(10_000_000),
  /** Cost per run in USD (an agent's `budget.maxCostUsd`). */
  maxCostUsd: z.number().positive().default(100),
  /** Wall time of a run (an agent's `budget.maxWallMs`). */
  maxWallMs: z.number().int().positive().default(24 * 3_600_000),
  /** airetry's `config.retryDelayMs`: a durable timer longer than this is refused. */
  maxRetryDelayMs: z.number().int().nonnegative().default(600_000),
  /** Parallel samples, candidates or evaluations one step may ask for (`n`, `nSamples`, `bFactor`, the evaluator's `nSamples`, an MCTS round's `parallelism × bFactor`). */
  maxFanOut: z.number().int().positive().default(16),
  /** Continue-as-new handovers of one search; it then ends with its best answer. */
  maxGenerations: z.number().int().positive().default(100),
  /** Task queues runs may send model calls, tools and evaluations to, besides their own. */
  taskQueues: z.array(z.string().min(1)).default([]),
  /**
   * Tool calls of one model answer that run; the rest are answered with a tool message saying
   * they were dropped (one answer with 2,000 calls would otherwise become 2,000 activities).
   */
  maxToolCallsPerAnswer: z.number().int().positive().max(1000).default(64),
  /**
   * The largest model answer or tool output carried through Temporal as it is; a larger one is
   * cut to its first 4,000 characters (with a note) and kept whole in the message store. At
   * most 1 MiB: one call's answers share 1 MiB, well under Temporal's 2 MB payload limit.
   */
  maxInlineMessageBytes: z.number().int().min(16_384).max(1_048_576).default(262_144),
});
export type OperatorPolicy = z.output<typeof OperatorPolicySchema>;
export type OperatorPolicyInput = z.input<typeof OperatorPolicySchema>;

/** The default policy, for clients and workers that configure none. */
export const DEFAULT_POLICY: OperatorPolicy = OperatorPolicySchema.parse({});

type Limit = Exclude<keyof OperatorPolicy, 'taskQueues' | 'maxToolCallsPerAnswer' | 'maxInlineMessageBytes'>;

/**
 * What one message may carry under `policy` (see `fitMessage`).
 *
 * @example
 * messageLimits(DEFAULT_POLICY) // { maxBytes: 262144, maxToolCalls: 64 }
 */
export function messageLimits(policy: OperatorPolicy): { maxBytes: number; maxToolCalls: number } {
  return { maxBytes: policy.maxInlineMessageBytes, maxToolCalls: policy.maxToolCallsPerAnswer };
}

/**
 * Every way `input` (a ready-made workflow's validated input) exceeds `policy`, as
 * `path: what (limit)` lines; empty when it fits. `kindName` is the run's kind (`code-fixer`, the
 * name `RUN_KIND_NAMES` gives it); `ownQueue` is the task queue the run is on.
 *
 * @example
 * policyViolations('airetry', { config: { maxCalls: 1e9 } }, DEFAULT_POLICY, 'grove')
 * // ['config.maxCalls: 1000000000 is above the operator limit of 1000 (maxCalls)']
 */
export function policyViolations(kindName: string, input: Record<string, any>, policy: OperatorPolicy, ownQueue: string): string[] {
  // Runs recorded before every kind had one name ask with their former name (`codeFixer`).
  const kind = canonicalKind(kindName);
  const problems: string[] = [];
  const above = (path: string, value: unknown, limit: Limit) => {
    if (typeof value === 'number' && value > policy[limit]) {
      problems.push(`${path}: ${value} is above the operator limit of ${policy[limit]} (${limit})`);
    }
  };
  const queue = (path: string, value: unknown) => {
    if (typeof value === 'string' && value !== ownQueue && !policy.taskQueues.includes(value)) {
      const allowed = [ownQueue, ...policy.taskQueues].map((q) => `"${q}"`).join(', ');
      problems.push(`${path}: task queue "${value}" is not allowed for this run (allowed: ${allowed}; the operator's taskQueues)`);
    }
  };
  above('apiKwargs.n', input.apiKwargs?.n, 'maxFanOut');
  queue('llm.taskQueue', input.llm?.taskQueue);
  if (kind === 'code-fixer') above('numRounds', input.numRounds, 'maxCalls');
  if (kind === 'airetry' || kind === 'code-fixer') {
    above('config.maxCalls', input.config?.maxCalls, 'maxCalls');
    above('config.retryDelayMs', input.config?.retryDelayMs, 'maxRetryDelayMs');
    above('config.nSamples', input.config?.nSamples, 'maxFanOut');
  }
  if (kind === 'agent') {
    above('budget.maxCalls', input.budget?.maxCalls, 'maxCalls');
    above('budget.maxTokens', input.budget?.maxTokens, 'maxTokens');
    above('budget.maxCostUsd', input.budget?.maxCostUsd, 'maxCostUsd');
    above('budget.maxWallMs', input.budget?.maxWallMs, 'maxWallMs');
    above('bFactor', input.bFactor, 'maxFanOut');
    above('evaluator.nSamples', input.evaluator?.nSamples, 'maxFanOut');
    // Rollouts in flight times candidates each: the candidates and evaluations of one round.
    if (typeof input.parallelism === 'number' && input.parallelism > 1) above('parallelism × bFactor', input.parallelism * (typeof input.bFactor === 'number' ? input.bFactor : 3), 'maxFanOut');
    above('maxRollouts', input.maxRollouts, 'maxCalls');
    queue('toolTaskQueue', input.toolTaskQueue);
    queue('evaluatorTaskQueue', input.evaluatorTaskQueue);
  }
  if (kind === 'session') {
    above('maxSteps', input.maxSteps, 'maxCalls');
    queue('toolTaskQueue', input.toolTaskQueue);
  }
  return problems;
}

/**
 * An agent's budget with the policy's ceilings filled in where the input left them out (cost is
 * left alone: it only counts with `pricing`, and calls and tokens bound it anyway).
 *
 * @example
 * boundedBudget(undefined, DEFAULT_POLICY) // { maxCalls: 1000, maxTokens: 10000000, maxWallMs: 86400000 }
 */
export function boundedBudget<B extends { maxCalls?: number; maxTokens?: number; maxCostUsd?: number; maxWallMs?: number }>(
  budget: B | undefined,
  policy: OperatorPolicy,
): B & { maxCalls: number; maxTokens: number; maxWallMs: number } {
  return {
    ...(budget ?? ({} as B)),
    maxCalls: budget?.maxCalls ?? policy.maxCalls,
    maxTokens: budget?.maxTokens ?? policy.maxTokens,
    maxWallMs: budget?.maxWallMs ?? policy.maxWallMs,
  };
}
