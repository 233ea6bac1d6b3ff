import { continueAsNew, defineQuery, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { AgentInputSchema, type AgentInput } from '../core/agents/agent-options';
import { finalAnswer, includeTree, RESULT_TEXT_NODES, type AgentProgress, type AgentResult } from '../core/agents/agent-result';
import { bestNode } from '../core/agents/best-node';
import { formatSearchTree } from '../core/agents/format-search-tree';
import { trajectoryInput } from '../core/agents/path-book';
import { outcome as searchOutcome, runSearch } from '../core/agents/run-search';
import { SearchContext } from '../core/agents/search-context';
import { SearchState, type SearchStateJSON } from '../core/agents/search-state';
import type { SampleTreeJSON } from '../core/schemas/tree';
import { promptConversation } from '../core/schemas/prompt-conversation';
import type { HumanAction } from '../core/schemas/steering';
import { ApprovalBook } from '../core/steering/approvals';
import { historyIsLong, workflowAgentPort } from './lib/agent-port';
import { approvalWaiter } from './lib/approvals';
import { registerApprovals } from './lib/approve-update';
import { steerSearch } from './lib/steer-search';
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
 * People can steer it while it runs (`rewind`, `feedback`, `stop`, `approve` updates; see
 * `steerSearch`), and every action is logged with who and when.
 *
 * @example
 * await client.workflow.execute('agent', { taskQueue: 'grove', workflowId: 'mult-1', args: [{
 *   algorithm: 'mcts', tools: ['multiply', 'final_answer'],
 *   prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
 * }] });
 */
export async function agent(raw: AgentInput, carried?: SearchStateJSON, carriedActions?: HumanAction[]): Promise<AgentResult> {
  const input = validateInput(AgentInputSchema, raw, 'agent input');
  if (!carried) reportRun({ kind: `agent:${input.algorithm}`, status: 'running' });
  const policy = await enforcePolicy('agent', input).catch(failRun);
  // Budgets the input leaves out default to the operator's ceilings: no search is unbounded.
  const options = policy ? { ...input, budget: boundedBudget(input.budget, policy) } : input;
  const port = workflowAgentPort(options);
  let ctx: SearchContext | undefined;
  let showDetails = () => {};
  const steering = steerSearch(() => ctx, { actions: carriedActions, changed: () => showDetails() });
  const book = new ApprovalBook();
  port.approve = approvalWaiter(book, options.approval, { record: (a) => steering.log.record(a), stopped: steering.stopRequested, changed: () => showDetails() });
  registerApprovals(book, { log: () => steering.log, finished: () => (ctx?.state.stop ? `the search has ended (${ctx.state.stop.kind})` : undefined), changed: () => showDetails() });
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
    let last = { step: 0, bestScore: 0 };
    showDetails = () => {
      // The UI's "current details": progress, what waits for a person, and the best trajectory so far.
      const best = bestNode(state.tree).id;
      const pending = book.pending().map((p) => `- waiting for approval: \`${p.callId}\` ${p.tool}(${p.arguments}) at ${p.where}`);
      const pruned = state.tree.abandonedRoots();
      const notes = [...pending, ...(pruned.length ? [`- abandoned by rewinds (kept in the \`tree\` query): ${pruned.map((id) => `n${id}`).join(', ')}`] : [])];
      setCurrentDetails(
        `**${options.algorithm}** — step ${last.step}, ${state.tree.size} nodes, ${state.counters.llmCalls} model calls, best score ${last.bestScore.toFixed(2)}\n\n` +
          `${notes.length ? `${notes.join('\n')}\n\n` : ''}\`\`\`\n${formatSearchTree(state.tree, { bestId: best, maxNodes: 40 })}\n\`\`\``,
      );
    };
    port.onStep = (p) => {
      if (p.bestScore > reported.bestScore || p.step - reported.step >= 25) {
        reportRun({ calls: p.llmCalls, tokens: p.tokens, bestScore: p.bestScore });
        reported = { step: p.step, bestScore: p.bestScore };
      }
      last = { step: p.step, bestScore: p.bestScore };
      showDetails();
    };
    const search = (ctx = new SearchContext(state, options, port));
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

    let outcome = await runSearch(search, {
      beforeStep: async () => {
        await steering.apply(search);
        if (state.stop || !historyIsLong()) return 'continue';
        if (policy && state.counters.handovers >= policy.maxGenerations) {
          return { kind: 'maxGenerations', message: `The search handed over ${state.counters.handovers} times, the operator's limit (maxGenerations).` };
        }
        return 'handover';
      },
    });
    if (outcome === 'handover') {
      await steering.settle(search);
      if (!state.stop) {
        state.counters.handovers += 1;
        return await continueAsNew<typeof agent>(raw, search.handoverJSON(), steering.log.toJSON());
      }
      outcome = searchOutcome(search);
    }
    steering.finish(`the search has ended (${outcome.stop.kind})`);
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
      ...(steering.log.list.length > 0 ? { actions: steering.log.toJSON() } : {}),
    };
  } catch (err) {
    failRun(err);
  }
}
