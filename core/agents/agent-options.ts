import { z } from 'zod';
import { BudgetSpecSchema, PricingSchema } from '../budget';
import { ChatParamsSchema } from '../schemas/chat-params';
import { LlmSettingsSchema } from '../schemas/llm-settings';
import { MessageSchema } from '../schemas/messages';
import { ForkOriginSchema } from '../runs/fork';

export const ALGORITHMS = ['mcts', 'astar', 'greedy', 'beam', 'cot'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** The agent's default system prompt (Saplings' gist: use the tools to solve the task). */
export const DEFAULT_AGENT_PROMPT =
  'You are a helpful assistant that solves the user\'s task step by step by calling the tools you are given. ' +
  'Use tool results exactly as returned. When the task is solved, give the final answer.';

const EvaluatorSchema = z.union([
  z.strictObject({
    name: z.literal('llm'),
    model: z.string().min(1).optional(),
    nSamples: z.number().int().min(1).max(16).optional(),
    prompt: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
  }),
  z.strictObject({
    name: z.string().min(1).refine((n) => n !== 'llm'),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
]);

/**
 * Options of a tool-using search agent (Saplings' parameters, plus budgets, a seed and
 * concurrency). Validated by the client before a run starts and by the workflow.
 */
export const AgentInputSchema = z
  .strictObject({
    algorithm: z.enum(ALGORITHMS),
    /** The task, as a user message; or `messages` for prior conversation plus the task. */
    prompt: z.string().min(1).optional(),
    messages: z.array(MessageSchema).min(1).optional(),
    /** System prompt for the agent's tool calls. */
    system: z.string().min(1).default(DEFAULT_AGENT_PROMPT),
    /** Names of tools registered on the workers. */
    tools: z.array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -')).min(1),
    model: z.string().min(1).optional(),
    /** Extra model parameters for candidate calls; `temperature` defaults to 1.0 (diverse candidates). */
    apiKwargs: ChatParamsSchema.optional(),
    evaluator: EvaluatorSchema.default({ name: 'llm' }),
    /** Candidates per expansion (one call with `n`, deduplicated). */
    bFactor: z.number().int().min(1).max(16).default(3),
    /** Steps (assistant messages) after the prompt at which a trajectory ends. */
    maxDepth: z.number().int().min(1).max(100).default(5),
    /** A score at or above this is a solution. */
    threshold: z.number().min(0).max(1).default(1),
    toolChoice: z.enum(['auto', 'required']).default('auto'),
    parallelToolCalls: z.boolean().default(false),
    /** MCTS: rollouts before it stops. */
    maxRollouts: z.number().int().min(1).default(10),
    /** MCTS: exploration constant of UCT. */
    exploration: z.number().nonnegative().default(1),
    /** MCTS: write a reflection on each failed trajectory and show the latest ones to later expansions (LATS). */
    reflection: z.boolean().default(true),
    /** Beam search: trajectories kept per depth. */
    beamWidth: z.number().int().min(1).max(64).default(2),
    /** A*: cost per step (f = score − pathCost·depth), so shorter solutions win ties; 0 is Saplings' A*. */
    pathCost: z.number().min(0).max(1).default(0.05),
    /** Model calls (candidates, LLM evaluations, reflections), tokens, cost (needs `pricing`) and wall time. */
    budget: BudgetSpecSchema.pick({ maxCalls: true, maxTokens: true, maxCostUsd: true, maxWallMs: true }).strict().optional(),
    /** Prices for the cost budget and the reported cost. */
    pricing: PricingSchema.optional(),
    /** Same seed, same model answers → the same search. */
    seed: z.number().int().optional(),
    /** Tool runs and evaluations in flight at once per expansion. */
    maxConcurrency: z.number().int().min(1).max(256).default(8),
    /** Task queue of the workers that serve the tools (default: the run's own). */
    toolTaskQueue: z.string().min(1).optional(),
    /** Task queue of the workers that serve the evaluator (default: the run's own). */
    evaluatorTaskQueue: z.string().min(1).optional(),
    llm: LlmSettingsSchema.optional(),
    /**
     * Whether the result carries the whole search tree: 'auto' up to 2,000 nodes (a result is
     * one payload, and Temporal limits payloads to 2 MB), 'full', or 'none'. The `tree` query
     * always has it while a worker serves the run.
     */
    resultTree: z.enum(['auto', 'full', 'none']).default('auto'),
    /** Continue another run's search tree from one of its nodes instead of starting at the prompt (`grove fork`). */
    fork: ForkOriginSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.prompt === undefined) === (v.messages === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'give exactly one of `prompt` or `messages`' });
    }
  });

export type AgentInput = z.input<typeof AgentInputSchema>;
export type AgentOptions = z.output<typeof AgentInputSchema>;
