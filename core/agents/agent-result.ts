import { z } from 'zod';
import { runnableCalls } from '../conversation/fit-message';
import { SampleTreeJsonSchema, type SampleTreeJSON } from '../schemas/tree';
import { MessageSchema, UsageSchema, type Message, type Usage } from '../schemas/messages';
import { ALGORITHMS } from './agent-options';
import type { HumanAction } from '../schemas/steering';
import type { AgentNode } from './agent-node';
import type { Algorithm } from './agent-options';
import type { SearchCounters, SearchStop } from './search-state';
import { VerdictSchema, type Verdict } from '../verdicts/verdict';

/** What a search agent returns (Saplings' `(messages, score, is_solution)`, plus how it got there). */
export interface AgentResult {
  kind: 'agent';
  algorithm: Algorithm;
  /** The best trajectory: the prompt, then every assistant message and tool result. */
  messages: Message[];
  /** The final answer's text, when the best node is a text answer or a terminal tool call. */
  answer?: string;
  score: number;
  isSolution: boolean;
  /** Who decided `isSolution` and `score`: the run's evaluator (an LLM judge, tests, a custom evaluator). */
  verdict?: Verdict;
  bestNodeId: number;
  /** Nodes in the search tree, the prompt included. */
  nodes: number;
  stop: SearchStop;
  counters: SearchCounters;
  usage: Usage;
  costUsd: number;
  reflections: string[];
  /** The search tree (refs and stats; the messages are in the message store); omitted for big trees (see `resultTree`). */
  tree?: SampleTreeJSON<AgentNode>;
  treeText: string;
  /** The human actions the run applied (rewind, feedback, approve, stop), when there were any. */
  actions?: HumanAction[];
}

/**
 * The published form of {@link AgentResult} (docs/schemas/agent.result.json), for services that
 * read agent results in other languages.
 */
export const AgentResultSchema = z.object({
  kind: z.literal('agent').describe('Always "agent".'),
  algorithm: z.enum(ALGORITHMS).describe('The search algorithm that ran.'),
  messages: z.array(MessageSchema).describe('The best trajectory: the prompt, then every assistant message and tool result (OpenAI chat messages).'),
  answer: z.string().optional().describe('The final answer: the text reply, or the argument of the terminal tool call; absent when the best trajectory did not finish.'),
  score: z.number().describe("The best trajectory's evaluation, 0-1."),
  isSolution: z.boolean().describe('Whether it is a solution (score at least `threshold`, and a finished answer).'),
  verdict: VerdictSchema.optional().describe("Who decided `isSolution` and `score`: an LLM judge ('judge', which model, whether it judged its own model's answer), tests ('tests') or a custom evaluator ('evaluator')."),
  bestNodeId: z.number().int().describe('Its node in `tree` (fork from a node with `grove fork --node N`).'),
  nodes: z.number().int().describe('Nodes in the search tree, the prompt included.'),
  stop: z
    .object({
      kind: z.enum(['solved', 'exhausted', 'maxRollouts', 'maxCalls', 'maxTokens', 'maxCost', 'deadline', 'maxGenerations', 'stopped']).describe('Why the search ended.'),
      message: z.string().describe('The same in words.'),
    })
    .describe('Why the search ended.'),
  counters: z
    .object({
      llmCalls: z.number().int().describe('Model calls: candidates, LLM evaluations, reflections.'),
      toolRuns: z.number().int().describe('Tool runs.'),
      toolErrors: z.number().int().describe('Tool runs that returned an error to the model.'),
      evaluations: z.number().int().describe('Evaluations.'),
      evaluationFailures: z.number().int().optional().describe('Evaluations that failed (the evaluator threw or gave no valid score); their nodes are never solutions.'),
      reflections: z.number().int().describe('Reflections written (MCTS).'),
      expansions: z.number().int().describe('Nodes expanded.'),
      steps: z.number().int().describe('Search steps.'),
      handovers: z.number().int().describe('Continue-as-new handovers.'),
    })
    .describe('What the search did.'),
  usage: UsageSchema.describe('Tokens used by every model call of the run.'),
  costUsd: z.number().describe('Dollars spent, by `pricing` (0 without it).'),
  reflections: z.array(z.string()).describe('The latest reflections on failed trajectories (MCTS).'),
  tree: SampleTreeJsonSchema.optional().describe('The search tree (refs and stats; messages are in the message store); omitted above 2,000 nodes (see `resultTree`).'),
  treeText: z.string().describe('The tree as text, one line per step.'),
});

/** Live progress, as the `progress` query reports it. */
export interface AgentProgress {
  algorithm: Algorithm;
  nodes: number;
  counters: SearchCounters;
  usage: Usage;
  costUsd: number;
  stop?: SearchStop;
  reflections: string[];
  /** The best node's score so far. */
  bestScore?: number;
  /** The run's budget, so a watcher can show what is left. */
  budget?: { maxCalls?: number; maxTokens?: number; maxCostUsd?: number; maxWallMs?: number };
}

/** The text of a trajectory's final answer: a text reply, or the arguments of the final tool call. */
export function finalAnswer(messages: Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    if (!m.tool_calls?.length) return m.content ?? undefined;
    const calls = runnableCalls(m); // a call grove dropped did not run: it answers nothing
    if (calls.length === 0) return undefined;
    const args = calls[calls.length - 1].function.arguments;
    try {
      const parsed = JSON.parse(args) as Record<string, unknown>;
      const value = parsed.answer ?? Object.values(parsed)[0];
      return value === undefined ? args : String(value);
    } catch {
      return args;
    }
  }
  return undefined;
}

/** Trees up to these sizes are returned whole, as JSON and as text: a result is one payload, at most 2 MB. */
export const RESULT_TREE_NODES = 2000;
export const RESULT_TEXT_NODES = 500;

/**
 * Whether a result carries the whole tree (`resultTree`: 'auto' up to {@link RESULT_TREE_NODES}).
 *
 * @example
 * includeTree('auto', 150); // true
 */
export function includeTree(mode: 'auto' | 'full' | 'none', size: number): boolean {
  return mode === 'full' || (mode === 'auto' && size <= RESULT_TREE_NODES);
}
