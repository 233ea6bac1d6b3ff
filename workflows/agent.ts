import { allHandlersFinished, condition, continueAsNew, defineQuery, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { AgentInputSchema, type AgentInput, type AgentOptions } from '../core/agents/agent-options';
import { finalAnswer, includeTree, RESULT_TEXT_NODES, type AgentProgress, type AgentResult } from '../core/agents/agent-result';
import { bestNode, maxScore } from '../core/agents/best-node';
import { formatSearchTree } from '../core/agents/format-search-tree';
import { trajectoryInput } from '../core/agents/path-book';
import { runSearch } from '../core/agents/run-search';
import { SearchContext } from '../core/agents/search-context';
import { SearchState, type SearchStateJSON } from '../core/agents/search-state';
import { withOverrides } from '../core/runs/run-overrides';
import type { SampleTreeJSON } from '../core/schemas/tree';
import { promptConversation } from '../core/schemas/prompt-conversation';
import { historyIsLong, workflowAgentPort } from './lib/agent-port';
import { onResume, resumePoint } from './lib/resume-point';
import { failRun, reportRun, type FinalCounters } from './lib/run-status';
import { setLedgerGeneration } from './lib/run-ledger';
import { validateInput } from './lib/validate-input';

export const searchTreeQuery = defineQuery<SampleTreeJSON>('tree');
export const searchTreeTextQuery = defineQuery<string>('treeText');
export const searchProgressQuery = defineQuery<AgentProgress>('progress');

/**
 * A tool-using search agent as a durable workflow: MCTS (LATS), A*, greedy, beam or
 * chain-of-thought over tool-call trajectories, guided by an evaluator, within budgets. Each
 * model call, tool run and evaluation is an activity; selection, expansion bookkeeping,
 * backpropagation and termination are this workflow's deterministic code (`core/agents`).
 * When Temporal suggests it, the search continues as new with its tree (refs and stats only).
 * With `fork`, it continues another run's tree from one of its nodes.
 *
 * @example
 * await client.workflow.execute('agent', { taskQueue: 'grove', workflowId: 'mult-1', args: [{
 *   algorithm: 'mcts', tools: ['multiply', 'final_answer'],
 *   prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
 * }] });
 */
export async function agent(raw: AgentInput, carried?: SearchStateJSON): Promise<AgentResult> {
  const options = validateInput(AgentInputSchema, raw, 'agent input', agentKind(raw));
  let input = raw;
  let state: SearchState | undefined;
  const final = (): FinalCounters =>
    state ? { calls: state.counters.llmCalls, tokens: state.usage.totalTokens, bestScore: maxScore(state.tree) } : {};
  // A resume (`grove resume --model ... --max-calls ...`) changes the settings of the calls and
  // decisions still to come, and hands them on through continue-as-new.
  onResume((overrides) => {
    input = withOverrides('agent', input, overrides);
    const next = AgentInputSchema.parse(input);
    options.model = next.model;
    options.evaluator = next.evaluator;
    options.budget = next.budget;
  });
  const port = workflowAgentPort(options);
  try {
    const resuming = resumePoint();
    if (resuming) await resuming;
    if (carried) {
      state = SearchState.fromJSON(carried);
      setLedgerGeneration(state.counters.handovers);
    } else {
      reportRun({ kind: `agent:${options.algorithm}`, status: 'running' });
      const specs = await port.describeTools(options.tools);
      const prompt = promptConversation({ prompt: options.prompt, messages: options.messages, system: null });
      state = options.fork ? SearchState.fromFork(options.fork, specs, Date.now()) : SearchState.create(prompt, specs, Date.now());
    }
    const search = state;
    let reported = { step: 0, bestScore: -1 };
    port.onStep = (p) => {
      if (p.bestScore > reported.bestScore || p.step - reported.step >= 25) {
        reportRun({ calls: p.llmCalls, tokens: p.tokens, bestScore: p.bestScore });
        reported = { step: p.step, bestScore: p.bestScore };
      }
      // The UI's "current details": progress and the best trajectory so far.
      const best = bestNode(search.tree).id;
      setCurrentDetails(
        `**${options.algorithm}** — step ${p.step}, ${p.nodes} nodes, ${p.llmCalls} model calls, best score ${p.bestScore.toFixed(2)}\n\n` +
          `\`\`\`\n${formatSearchTree(search.tree, { bestId: best, maxNodes: 40 })}\n\`\`\``,
      );
    };
    const ctx = new SearchContext(search, options, port);
    setHandler(searchTreeQuery, () => search.tree.toJSON());
    setHandler(searchTreeTextQuery, () => formatSearchTree(search.tree));
    setHandler(searchProgressQuery, () => ({
      algorithm: options.algorithm,
      nodes: search.tree.size,
      counters: search.counters,
      usage: search.usage,
      costUsd: search.costUsd,
      stop: search.stop,
      reflections: search.reflections,
    }));

    const outcome = await runSearch(ctx, { beforeStep: async () => (historyIsLong() ? 'handover' : 'continue') });
    if (outcome === 'handover') {
      search.counters.handovers += 1;
      await condition(allHandlersFinished);
      return await continueAsNew<typeof agent>(input, ctx.handoverJSON());
    }
    const messages = await port.resolvePath(trajectoryInput(search.tree, outcome.bestId));
    reportRun({
      status: outcome.isSolution ? 'succeeded' : 'exhausted',
      calls: search.counters.llmCalls,
      tokens: search.usage.totalTokens,
      bestScore: outcome.score,
    });
    return agentResult(options, search, outcome, messages);
  } catch (err) {
    failRun(err, final());
  }
}

function agentResult(
  options: AgentOptions,
  state: SearchState,
  outcome: Exclude<Awaited<ReturnType<typeof runSearch>>, 'handover'>,
  messages: AgentResult['messages'],
): AgentResult {
  return {
    kind: 'agent',
    algorithm: options.algorithm,
    messages,
    answer: finalAnswer(messages),
    score: outcome.score,
    isSolution: outcome.isSolution,
    bestNodeId: outcome.bestId,
    nodes: state.tree.size,
    stop: outcome.stop,
    counters: state.counters,
    usage: state.usage,
    costUsd: state.costUsd,
    reflections: state.reflections,
    tree: includeTree(options.resultTree, state.tree.size) ? state.tree.toJSON() : undefined,
    treeText: formatSearchTree(state.tree, { bestId: outcome.bestId, maxNodes: RESULT_TEXT_NODES }),
  };
}

/** `agent:<algorithm>` as far as an input that may be invalid says. */
function agentKind(raw: unknown): string {
  const algorithm = (raw as { algorithm?: unknown } | null)?.algorithm;
  return typeof algorithm === 'string' && /^[a-z]{1,10}$/.test(algorithm) ? `agent:${algorithm}` : 'agent';
}
