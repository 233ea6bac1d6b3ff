import type { AgentPort } from '../../core/agents/agent-port';
import type { AICallPort } from '../../core/airetry/ports';
import { withConversation } from '../../core/hash/with-conversation';
import type { SessionPort } from '../../core/session/run-turn';
import type { ApprovalAsk, ApprovalOutcome } from '../../core/steering/approvals';
import type { GroveActivities } from '../grove-activities';
import { failedEvaluation } from '../../core/agents/evaluation-failures';

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
    // As in a workflow: a custom evaluator's bad score or throw fails that evaluation, not the search.
    evaluate: (input) => activities.groveEvaluate(input).catch((err: unknown) => failedEvaluation(err) ?? Promise.reject(err)),
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

/**
 * The port of a session's turns, in process. Nobody can approve a tool call here unless
 * `approve` says how (the default rejects, as a run whose approval times out does), and
 * `llmJudge` checks need a `judge`.
 *
 * @example
 * const port = inProcessSessionPort(activities, { approve: async () => ({ decision: 'approve', by: 'test', at: 0 }) });
 */
export function inProcessSessionPort(
  activities: Pick<GroveActivities, 'llmChat' | 'groveRunTool'>,
  opts: { approve?: (ask: ApprovalAsk) => Promise<ApprovalOutcome>; judge?: SessionPort['judge']; nowMs?: () => number } = {},
): SessionPort {
  const nowMs = opts.nowMs ?? (() => Date.now());
  return {
    chat: inProcessCallPort(activities).chat,
    runTool: (input) => activities.groveRunTool(input),
    approve: opts.approve ?? (async () => ({ decision: 'reject', by: 'nobody', at: nowMs(), reason: 'nobody can approve calls in this process' })),
    judge: opts.judge ?? (() => Promise.reject(new Error('llmJudge checks need a judge in process'))),
    nowMs,
  };
}
