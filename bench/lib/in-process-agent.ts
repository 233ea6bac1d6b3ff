import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { createGroveActivities } from '../../activities/grove-activities';
import { inProcessAgentPort } from '../../activities/in-process/ports';
import { llmConfigFromEnv } from '../../activities/llm/llm-config';
import { AgentInputSchema, type AgentInput } from '../../core/agents/agent-options';
import { finalAnswer } from '../../core/agents/agent-result';
import { trajectoryInput } from '../../core/agents/path-book';
import { runSearch, type SearchOutcome } from '../../core/agents/run-search';
import { SearchContext, type SearchBehaviour } from '../../core/agents/search-context';
import { SearchState } from '../../core/agents/search-state';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import { multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';
import type { AnyToolDefinition } from '../../activities/tools';
import type { EvaluatorDefinition } from '../../activities/evaluators';
import { inProcessOpenAI } from '../../model-server';

export const QUICKSTART = 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).';

/** The Saplings quickstart as agent input, with the scripted multiplier and judge (it needs 6 steps, hence maxDepth 8). */
export const quickstartInput = (over: Partial<AgentInput> = {}): AgentInput => ({
  algorithm: 'mcts',
  prompt: QUICKSTART,
  tools: ['multiply', 'final_answer'],
  model: 'multiplier',
  evaluator: { name: 'llm', model: 'multiplier-judge' },
  maxDepth: 8,
  ...over,
});

/** Everything an in-process search needs, with the example tools and evaluators. */
export function inProcessAgent(opts: { seed?: number; tools?: AnyToolDefinition[]; evaluators?: EvaluatorDefinition[] } = {}) {
  const client = inProcessOpenAI({ seed: opts.seed });
  const store = new MemoryMessageStore();
  const llm = llmConfigFromEnv({}, { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'multiplier-judge' });
  const activities = createGroveActivities({ llm, store, client, tools: opts.tools ?? exampleTools, evaluators: opts.evaluators ?? [multiplicationChecker] });
  let clock = 0;
  const port = inProcessAgentPort(activities, { nowMs: () => (clock += 1000) });
  return { client, store, activities, port };
}

/** Runs a search in process to its end (or a handover at `handoverAtStep`). */
export async function searchInProcess(
  input: AgentInput,
  opts: { seed?: number; handoverAtStep?: number; state?: SearchState; env?: ReturnType<typeof inProcessAgent>; behaviour?: Partial<SearchBehaviour> } = {},
) {
  const { port, client } = opts.env ?? inProcessAgent(opts);
  const options = AgentInputSchema.parse(input);
  const prompt = promptConversation({ prompt: options.prompt, messages: options.messages, system: null });
  const specs = opts.state ? [] : await port.describeTools(options.tools);
  const state = opts.state ?? (options.fork ? SearchState.fromFork(options.fork, specs, 0) : SearchState.create(prompt, specs, 0));
  const ctx = new SearchContext(state, options, port, opts.behaviour);
  const outcome = await runSearch(ctx, {
    beforeStep: async () => (opts.handoverAtStep !== undefined && state.counters.steps === opts.handoverAtStep ? 'handover' : 'continue'),
  });
  if (outcome === 'handover') return { handover: true as const, state, ctx, client };
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  return { handover: false as const, outcome: outcome as SearchOutcome, messages, answer: finalAnswer(messages), state, ctx, client };
}
