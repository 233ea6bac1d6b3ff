import type { AgentPort } from '../../core/agents/agent-port';
import type { AICallPort } from '../../core/airetry/ports';
import { withConversation } from '../../core/hash/with-conversation';
import type { GroveActivities } from '../grove-activities';

/**
 * The ports of grove's algorithms, implemented by calling the activities as plain functions in
 * this process — no Temporal. The same core code then runs without durability: for unit tests,
 * and as the baseline the benchmarks compare durable runs against.
 *
 * @example
 * const port = inProcessAgentPort(createGroveActivities({ llm, store, tools }));
 * const ctx = new SearchContext(SearchState.create(prompt, await port.describeTools(names), Date.now()), options, port);
 * const outcome = await runSearch(ctx);
 */
export function inProcessAgentPort(activities: GroveActivities, opts: { nowMs?: () => number } = {}): AgentPort {
  return {
    describeTools: (names) => activities.groveDescribeTools({ names }),
    activeTools: (input) => activities.groveActiveTools(input),
    chat: (input) => activities.llmChat(input),
    runTool: (input) => activities.groveRunTool(input),
    evaluate: (input) => activities.groveEvaluate(input),
    resolvePath: (path) => activities.groveResolvePath({ path }),
    nowMs: opts.nowMs ?? (() => Date.now()),
  };
}

/** The port of AI calls (airetry), in process: `sleep` is a plain timer. */
export function inProcessCallPort(activities: Pick<GroveActivities, 'llmChat'>): AICallPort {
  return {
    async chat(refs, path, request) {
      const { summary: _summary, ...rest } = request;
      const result = await withConversation(refs, path, (conversation) => activities.llmChat({ conversation, ...rest }));
      refs.markRefsStored(result.choices.map((c) => c.ref));
      return result;
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
