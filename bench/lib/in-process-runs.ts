import { createGroveActivities, type GroveActivities } from '../../activities/grove-activities';
import { inProcessAgentPort, inProcessCallPort } from '../../activities/in-process/ports';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { AgentInputSchema, type AgentInput } from '../../core/agents/agent-options';
import { trajectoryInput } from '../../core/agents/path-book';
import { runSearch, type SearchOutcome } from '../../core/agents/run-search';
import { SearchContext } from '../../core/agents/search-context';
import { SearchState } from '../../core/agents/search-state';
import { callFromInput, runChecks } from '../../core/airetry/ready-made';
import { seededRandom } from '../../core/random';
import { AiretryInputSchema, type AiretryInput } from '../../core/airetry/airetry-input';
import type { Message } from '../../core/schemas/messages';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import { multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';
import type { BenchEnv } from './bench-env';
import { benchEvaluators } from './bench-models';

/** grove's activities as plain functions (HTTP to the scripted model server), counting calls. */
export function countedActivities(env: BenchEnv): { activities: GroveActivities; count: () => number } {
  const raw = createGroveActivities({
    llm: env.llm(),
    store: new MemoryMessageStore(),
    tools: exampleTools,
    evaluators: [multiplicationChecker, ...benchEvaluators],
  });
  let calls = 0;
  const counted = Object.fromEntries(
    Object.entries(raw).map(([name, fn]) => [name, (...args: unknown[]) => (calls++, (fn as (...a: unknown[]) => Promise<unknown>)(...args))]),
  ) as GroveActivities;
  return { activities: counted, count: () => calls };
}

/** The ready-made airetry, driven in this process: the same core code, no Temporal. */
export async function airetryInProcess(env: BenchEnv, raw: AiretryInput) {
  const { activities, count } = countedActivities(env);
  const input = AiretryInputSchema.parse(raw);
  const call = callFromInput(input, inProcessCallPort(activities), seededRandom(input.seed ?? 0));
  const outcomes = await runChecks(call, input, async () => false);
  return { call, success: outcomes.every((o) => o.passed), activities: count() };
}

/** A search agent driven in this process: the same core code, no Temporal. */
export async function agentInProcess(env: BenchEnv, raw: AgentInput): Promise<{ outcome: SearchOutcome; state: SearchState; activities: number; messages: Message[] }> {
  const { activities, count } = countedActivities(env);
  const port = inProcessAgentPort(activities);
  const options = AgentInputSchema.parse(raw);
  const prompt = promptConversation({ prompt: options.prompt, messages: options.messages, system: null });
  const state = SearchState.create(prompt, await port.describeTools(options.tools), Date.now());
  const outcome = (await runSearch(new SearchContext(state, options, port))) as SearchOutcome;
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  return { outcome, state, activities: count(), messages };
}
