import { z } from 'zod';
import { INPUT_LIMITS } from '../schemas/input-shape';
import { RegistryPinSchema } from '../schemas/fleet';
import { BudgetSpecSchema, PricingSchema } from '../budget';
import { ChatParamsSchema } from '../schemas/chat-params';
import { LlmSettingsSchema } from '../schemas/llm-settings';
import { MessageSchema } from '../schemas/messages';
import { ApprovalSettingsSchema } from '../schemas/steering';
import { ForkOriginSchema } from '../runs/fork';

export const ALGORITHMS = ['mcts', 'astar', 'greedy', 'beam', 'cot'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** The agent's default system prompt (Saplings' gist: use the tools to solve the task). */
export const DEFAULT_AGENT_PROMPT =
  'You are a helpful assistant that solves the user\'s task step by step by calling the tools you are given. ' +
  'Use tool results exactly as returned. When the task is solved, give the final answer.';

const EvaluatorSchema = z.union([
  z.strictObject({
    name: z.literal('llm').describe('The LLM evaluator: a model scores each trajectory 0-10 with its reasoning.'),
    model: z.string().min(1).optional().describe("Its model (default the run's `model`, else the workers' GROVE_MODEL)."),
    nSamples: z.number().int().min(1).max(16).optional().describe('Scores averaged per evaluation (default 1).'),
    prompt: z.string().min(1).optional().describe('Its instructions, replacing the default.'),
    temperature: z.number().min(0).max(2).optional().describe('Its sampling temperature.'),
  }),
  z.strictObject({
    name: z.string().min(1).refine((n) => n !== 'llm').describe('A custom evaluator registered on the workers (`defineEvaluator`).'),
    options: z.record(z.string(), z.unknown()).optional().describe('Options passed to it.'),
  }),
]);

/**
 * Options of a tool-using search agent (Saplings' parameters, plus budgets, a seed and
 * concurrency). Validated by the client before a run starts and by the workflow.
 */
export const AgentInputSchema = z
  .strictObject({
    algorithm: z.enum(ALGORITHMS).describe("'mcts' (LATS), 'astar', 'greedy', 'beam' or 'cot' (chain of thought, no search)."),
    /** The task, as a user message; or `messages` for prior conversation plus the task. */
    prompt: z.string().min(1).optional().describe('The task, as one user message. Give exactly one of `prompt` or `messages`.'),
    messages: z
      .array(MessageSchema)
      .min(1)
      .max(INPUT_LIMITS.messages)
      .optional()
      .describe('Prior conversation plus the task, as OpenAI chat messages. Give exactly one of `prompt` or `messages`.'),
    /** System prompt for the agent's tool calls. */
    system: z.string().min(1).default(DEFAULT_AGENT_PROMPT).describe("System prompt for the agent's tool calls."),
    /** Names of tools registered on the workers. */
    tools: z
      .array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'))
      .min(1)
      .max(INPUT_LIMITS.tools)
      .describe("Names of tools registered on the workers (`defineTool`, or an MCP server's as `<server>__<tool>`), at most 128 (what OpenAI accepts in one call)."),
    model: z.string().min(1).optional().describe("The model for candidate steps (default the workers' GROVE_MODEL)."),
    /** Extra model parameters for candidate calls; `temperature` defaults to 1.0 (diverse candidates). */
    apiKwargs: ChatParamsSchema.optional().describe(
      'Extra chat-completion parameters for candidate calls, as OpenAI names them; `temperature` defaults to 1.0 (diverse candidates).',
    ),
    evaluator: EvaluatorSchema.default({ name: 'llm' }).describe('What scores each new trajectory: the LLM evaluator, or a custom one by name.'),
    /** Candidates per expansion (one call with `n`, deduplicated). */
    bFactor: z.number().int().min(1).max(16).default(3).describe('Candidates per expansion (one model call with `n`, deduplicated).'),
    /** Steps (assistant messages) after the prompt at which a trajectory ends. */
    maxDepth: z.number().int().min(1).max(100).default(5).describe('Steps (assistant messages) after the prompt at which a trajectory ends.'),
    /** A score at or above this is a solution. */
    threshold: z.number().min(0).max(1).default(1).describe('A score at or above this is a solution.'),
    toolChoice: z.enum(['auto', 'required']).default('auto').describe("'auto': the model may answer in text; 'required': it must call a tool."),
    parallelToolCalls: z.boolean().default(false).describe('Let one step call several tools (all of them run).'),
    /** MCTS: rollouts before it stops. */
    maxRollouts: z.number().int().min(1).default(10).describe('MCTS: rollouts before it stops.'),
    /** MCTS: exploration constant of UCT. */
    exploration: z.number().nonnegative().default(1).describe('MCTS: exploration constant of UCT.'),
    /**
     * MCTS: rollouts in flight at once — each round selects this many leaves (virtual loss keeps
     * them apart); A*: frontier nodes expanded at once. Both expand concurrently and apply the
     * results in selection order, so the same seed and answers give the same tree whatever the
     * timing. 1 is sequential.
     */
    parallelism: z
      .number()
      .int()
      .min(1)
      .max(16)
      .default(1)
      .describe('MCTS: rollouts in flight at once (virtual loss); A*: frontier nodes expanded at once. Results are applied in selection order, so the same seed gives the same tree. 1 is sequential.'),
    /** MCTS: write a reflection on each failed trajectory and show the latest ones to later expansions (LATS). */
    reflection: z.boolean().default(true).describe('MCTS: reflect on each failed trajectory and show the latest reflections to later expansions (LATS).'),
    /** Beam search: trajectories kept per depth. */
    beamWidth: z.number().int().min(1).max(64).default(2).describe('Beam search: trajectories kept per depth.'),
    /** A*: cost per step (f = score − pathCost·depth), so shorter solutions win ties; 0 is Saplings' A*. */
    pathCost: z.number().min(0).max(1).default(0.05).describe("A*: cost per step (f = score − pathCost·depth), so shorter solutions win ties; 0 is Saplings' A*."),
    /** Model calls (candidates, LLM evaluations, reflections), tokens, cost (needs `pricing`) and wall time. */
    budget: BudgetSpecSchema.pick({ maxCalls: true, maxTokens: true, maxCostUsd: true, maxWallMs: true })
      .strict()
      .optional()
      .describe('Limits: model calls (candidates, LLM evaluations, reflections), tokens, cost (needs `pricing`), wall time. The search ends with its best node when one runs out.'),
    /** Prices for the cost budget and the reported cost. */
    pricing: PricingSchema.optional().describe('Prices for the cost budget and the reported cost.'),
    /** Same seed, same model answers → the same search. */
    seed: z.number().int().optional().describe('Sent to the model as `seed`; the same seed and answers give the same search.'),
    /** Tool runs and evaluations in flight at once per expansion. */
    maxConcurrency: z.number().int().min(1).max(256).default(8).describe('Tool runs and evaluations in flight at once per expansion.'),
    /** Task queue of the workers that serve the tools (default: the run's own). */
    toolTaskQueue: z.string().min(1).optional().describe("Task queue of the workers that serve the tools (default the run's own)."),
    /** Task queue of the workers that serve the evaluator (default: the run's own). */
    evaluatorTaskQueue: z.string().min(1).optional().describe("Task queue of the workers that serve the evaluator (default the run's own)."),
    llm: LlmSettingsSchema.optional().describe('How model calls run as Temporal activities: task queue, timeouts, retries, reuse of paid results.'),
    /** How long a call to a tool that requires approval waits for a person, and the decision when nobody decides. */
    approval: ApprovalSettingsSchema.default({ timeoutMs: 86_400_000, onTimeout: 'reject' }).describe('How long a call to a tool that requires approval waits for a person, and the decision when nobody decides.'),
    /**
     * Whether the result carries the whole search tree: 'auto' up to 2,000 nodes (a result is
     * one payload, and Temporal limits payloads to 2 MB), 'full', or 'none'. The `tree` query
     * always has it while a worker serves the run.
     */
    resultTree: z
      .enum(['auto', 'full', 'none'])
      .default('auto')
      .describe("Whether the result carries the whole tree: 'auto' up to 2,000 nodes (Temporal limits a payload to 2 MB), 'full' or 'none'."),
    /** Continue another run's search tree from one of its nodes instead of starting at the prompt (`grove fork`). */
    fork: ForkOriginSchema.optional(),
    registry: RegistryPinSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.prompt === undefined) === (v.messages === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'give exactly one of `prompt` or `messages`' });
    }
  });

export type AgentInput = z.input<typeof AgentInputSchema>;
export type AgentOptions = z.output<typeof AgentInputSchema>;
