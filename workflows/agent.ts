import { allHandlersFinished, condition, continueAsNew, defineQuery, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { AgentInputSchema, type AgentInput } from '../core/agents/agent-options';
import { finalAnswer, includeTree, RESULT_TEXT_NODES, type AgentProgress, type AgentResult } from '../core/agents/agent-result';
import { bestNode } from '../core/agents/best-node';
import { formatSearchTree } from '../core/agents/format-search-tree';
import { trajectoryInput } from '../core/agents/path-book';
import { runSearch } from '../core/agents/run-search';
import { SearchContext } from '../core/agents/search-context';
import { SearchState, type SearchStateJSON } from '../core/agents/search-state';
import type { SampleTreeJSON } from '../core/schemas/tree';
import { promptConversation } from '../core/schemas/prompt-conversation';
import { historyIsLong, workflowAgentPort } from './lib/agent-port';
import { failRun, reportRun } from './lib/run-status';
import { setLedgerGeneration } from './lib/run-ledger';
import { validateInput } from './lib/validate-input';
import { enforcePolicy } from './lib/operator-policy';
import { boundedBudget } from '../core/policy/operator-policy';

export const searchTreeQuery = defineQuery<SampleTreeJSON>('tree');
export const searchTreeTextQuery = defineQuery<string>('treeText');
export const searchProgressQuery = defineQuery<AgentProgress>('progress');

/**
 * A tool-using search agent as a durable workflow: MCTS (LATS), A*, greedy, beam or
 * chain-of-thought over tool-call trajectories, guided by an evaluator, within budgets. Each
 * model call, tool run and evaluation is an activity; selection, expansion bookkeeping,
 * backpropagation and termination are this workflow's deterministic code (`core/agents`).
 * When Temporal suggests it, the search continues as new with its tree (refs and stats only).
 *
 * @example
 * await client.workflow.execute('agent', { taskQueue: 'grove', workflowId: 'mult-1', args: [{
 *   algorithm: 'mcts', tools: ['multiply', 'final_answer'],
 *   prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
 * }] });
 */
export async function agent(raw: AgentInput, carried?: SearchStateJSON): Promise<AgentResult> {
  const input = validateInput(AgentInputSchema, raw, 'agent input');
  if (!carried) reportRun({ kind: `agent:${input.algorithm}`, status: 'running' });
  const policy = await enforcePolicy('agent', input).catch(failRun);
  // Budgets the input leaves out default to the operator's ceilings: no search is unbounded.
  const options = policy ? { ...input, budget: boundedBudget(input.budget, policy) } : input;
  const port = workflowAgentPort(options);
  try {
    let state: SearchState;
    if (carried) {
      state = SearchState.fromJSON(carried);
      setLedgerGeneration(state.counters.handovers);
    } else {
      const prompt = promptConversation({ prompt: options.prompt, messages: options.messages, system: null });
      state = SearchState.create(prompt, await port.describeTools(options.tools), Date.now());
    }
    let reported = { step: 0, bestScore: -1 };
    port.onStep = (p) => {
      if (p.bestScore > reported.bestScore || p.step - reported.step >= 25) {
        reportRun({ calls: p.llmCalls, tokens: p.tokens, bestScore: p.bestScore });
        reported = { step: p.step, bestScore: p.bestScore };
      }
      // The UI's "current details": progress and the best trajectory so far.
      const best = bestNode(state.tree).id;
      setCurrentDetails(
        `**${options.algorithm}** — step ${p.step}, ${p.nodes} nodes, ${p.llmCalls} model calls, best score ${p.bestScore.toFixed(2)}\n\n` +
          `\`\`\`\n${formatSearchTree(state.tree, { bestId: best, maxNodes: 40 })}\n\`\`\``,
      );
    };
    const ctx = new SearchContext(state, options, port);
    setHandler(searchTreeQuery, () => state.tree.toJSON());
    setHandler(searchTreeTextQuery, () => formatSearchTree(state.tree));
    setHandler(searchProgressQuery, () => ({
      algorithm: options.algorithm,
      nodes: state.tree.size,
      counters: state.counters,
      usage: state.usage,
      costUsd: state.costUsd,
      stop: state.stop,
      reflections: state.reflections,
      bestScore: bestNode(state.tree).score,
      budget: options.budget,
    }));

    const outcome = await runSearch(ctx, {
      beforeStep: async () => {
        if (!historyIsLong()) return 'continue';
        if (policy && state.counters.handovers >= policy.maxGenerations) {
          return { kind: 'maxGenerations', message: `The search handed over ${state.counters.handovers} times, the operator's limit (maxGenerations).` };
        }
        return 'handover';
      },
    });
    if (outcome === 'handover') {
      state.counters.handovers += 1;
      await condition(allHandlersFinished);
      return await continueAsNew<typeof agent>(raw, ctx.handoverJSON());
    }
    const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
    reportRun({
      status: outcome.isSolution ? 'succeeded' : 'exhausted',
      calls: state.counters.llmCalls,
      tokens: state.usage.totalTokens,
      bestScore: outcome.score,
    });
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
  } catch (err) {
    failRun(err);
  }
}
