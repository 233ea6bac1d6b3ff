import { continueAsNew, defineQuery, patched, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { AgentInputSchema, type AgentInput, type AgentOptions } from '../core/agents/agent-options';
import { finalAnswer, includeTree, RESULT_TEXT_NODES, type AgentProgress, type AgentResult } from '../core/agents/agent-result';
import { bestNode, highestScore } from '../core/agents/best-node';
import { formatSearchTree } from '../core/agents/format-search-tree';
import { trajectoryInput } from '../core/agents/path-book';
import { outcome as searchOutcome, runSearch } from '../core/agents/run-search';
import { SearchContext } from '../core/agents/search-context';
import { SearchState, type SearchStateJSON } from '../core/agents/search-state';
import { withOverrides } from '../core/runs/run-overrides';
import type { SampleTreeJSON } from '../core/schemas/tree';
import { promptConversation } from '../core/schemas/prompt-conversation';
import type { HumanAction } from '../core/schemas/steering';
import { ApprovalBook } from '../core/steering/approvals';
import { agentRegistryNeeds, historyIsLong, workflowAgentPort } from './lib/agent-port';
import { EVALUATION_FAILURES } from './lib/evaluator-port';
import { bindRegistry, carriedRegistry as registryToCarry, registryBinds, restoreRegistry } from './lib/run-registry';
import type { RunRegistry } from '../core/schemas/fleet';
import { approvalWaiter } from './lib/approvals';
import { registerApprovals } from './lib/approve-update';
import { steerSearch } from './lib/steer-search';
import { onResume, resumePoint } from './lib/resume-point';
import { endedStatus } from '../core/schemas/run-status';
import { failRun, reportRun, type FinalCounters } from './lib/run-status';
import { LlmSettingsSchema } from '../core/schemas/llm-settings';
import { setLedgerGeneration } from './lib/run-ledger';
import { startRun } from './lib/run-lifecycle';
import { fitResult } from './lib/result-size';
import { boundedBudget } from '../core/policy/operator-policy';
import { evaluatorVerdict, type Verdict } from '../core/verdicts/verdict';
import { patchId } from './patches';

/** Change id: the LLM evaluator defaults to the run's model. */
export const EVALUATOR_RUN_MODEL = patchId('grove-evaluator-run-model');
/** Change id: the last expansion shrinks to the calls left instead of stopping with budget unused. */
export const ANYTIME_BUDGET = patchId('grove-anytime-budget');
/** Patch id: a beam level's children are attached in beam order, not as their calls finish. */
export const ORDERED_ROUNDS = patchId('grove-ordered-rounds');
/** Patch id: under a tight call budget an expansion is as wide as still lets the trajectory finish (MCTS, greedy). */
export const PLANNED_WIDTH = patchId('grove-planned-width');


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
 * `steerSearch`), and every action is logged with who and when. With `fork`, it continues
 * another run's tree from one of its nodes; `grove resume` continues a failed run where it failed.
 *
 * @example
 * await client.workflow.execute('agent', { taskQueue: 'grove', workflowId: 'mult-1', args: [{
 *   algorithm: 'mcts', tools: ['multiply', 'final_answer'],
 *   prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
 * }] });
 */
export async function agent(raw: AgentInput, carried?: SearchStateJSON, carriedActions?: HumanAction[], carriedRegistry?: RunRegistry[]): Promise<AgentResult> {
  let binds = false;
  const { input: validated, policy } = await startRun(AgentInputSchema, raw, {
    what: 'agent input',
    kind: agentKind(raw),
    runningKind: (v) => `agent:${v.algorithm}`,
    policyKind: 'agent',
    continued: carried !== undefined,
    // Whether tools bind to a registry is asked first thing, before anything is awaited (see registryBinds).
    beforeReport: () => {
      binds = !carried && registryBinds();
    },
  });
  // Budgets the input leaves out default to the operator's ceilings: no search is unbounded.
  const bounded: AgentOptions = policy ? { ...validated, budget: boundedBudget(validated.budget, policy) } : validated;
  // The LLM evaluator grades with the run's model unless told otherwise (runs started before kept the worker's default).
  const evaluator = bounded.evaluator as { name: string; model?: string };
  const options: AgentOptions =
    evaluator.name === 'llm' && evaluator.model === undefined && bounded.model !== undefined && patched(EVALUATOR_RUN_MODEL)
      ? ({ ...bounded, evaluator: { ...bounded.evaluator, model: bounded.model } } as AgentOptions)
      : bounded;
  let input = raw;
  let state: SearchState | undefined;
  const final = (): FinalCounters =>
    state ? { calls: state.counters.llmCalls, tokens: state.usage.totalTokens, bestScore: highestScore(state.tree) } : {};
  // A resume (`grove resume --model ... --max-calls ...`) changes the settings of the calls and
  // decisions still to come, and hands them on through continue-as-new.
  onResume((overrides) => {
    input = withOverrides('agent', input, overrides);
    const next = AgentInputSchema.parse(input);
    options.model = next.model;
    options.evaluator = next.evaluator;
    options.budget = policy ? boundedBudget(next.budget, policy) : next.budget;
  });
  const port = workflowAgentPort(options);
  let ctx: SearchContext | undefined;
  let showDetails = () => {};
  const steering = steerSearch(() => ctx, { actions: carriedActions, changed: () => showDetails() });
  const book = new ApprovalBook();
  port.approve = approvalWaiter(book, options.approval, { record: (a) => steering.log.record(a), stopped: steering.stopRequested, changed: () => showDetails() });
  registerApprovals(book, { log: () => steering.log, finished: () => (ctx?.state.stop ? `the search has ended (${ctx.state.stop.kind})` : undefined), changed: () => showDetails() });
  try {
    const resuming = resumePoint();
    if (resuming) await resuming;
    if (carried) {
      state = SearchState.fromJSON(carried);
      setLedgerGeneration(state.counters.handovers);
      restoreRegistry(carriedRegistry);
    } else {
      // Tools and a custom evaluator run only on workers with the registry the run starts with.
      await bindRegistry(agentRegistryNeeds(options), LlmSettingsSchema.parse(options.llm ?? {}), options.registry, binds);
      const specs = await port.describeTools(options.tools);
      const prompt = promptConversation({ prompt: options.prompt, messages: options.messages, system: null });
      state = options.fork ? SearchState.fromFork(options.fork, specs, Date.now()) : SearchState.create(prompt, specs, Date.now());
    }
    const current = state;
    let reported = { step: 0, bestScore: -1 };
    let last = { step: 0, bestScore: 0 };
    showDetails = () => {
      // The UI's "current details": progress, what waits for a person, and the best trajectory so far.
      const best = bestNode(current.tree).id;
      const pending = book.pending().map((p) => `- waiting for approval: \`${p.callId}\` ${p.tool}(${p.arguments}) at ${p.where}`);
      const pruned = current.tree.abandonedRoots();
      const notes = [...pending, ...(pruned.length ? [`- abandoned by rewinds (kept in the \`tree\` query): ${pruned.map((id) => `n${id}`).join(', ')}`] : [])];
      setCurrentDetails(
        `**${options.algorithm}** — step ${last.step}, ${current.tree.size} nodes, ${current.counters.llmCalls} model calls, best score ${last.bestScore.toFixed(2)}\n\n` +
          `${notes.length ? `${notes.join('\n')}\n\n` : ''}\`\`\`\n${formatSearchTree(current.tree, { bestId: best, maxNodes: 40 })}\n\`\`\``,
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
    const search = (ctx = new SearchContext(current, options, port, {
      anytime: patched(ANYTIME_BUDGET),
      orderedRounds: patched(ORDERED_ROUNDS),
      plannedWidth: patched(PLANNED_WIDTH),
      evaluationFailures: patched(EVALUATION_FAILURES),
    }));
    setHandler(searchTreeQuery, () => current.tree.toJSON());
    setHandler(searchTreeTextQuery, () => formatSearchTree(current.tree, { abandoned: true }));
    setHandler(searchProgressQuery, () => ({
      algorithm: options.algorithm,
      nodes: current.tree.size,
      counters: current.counters,
      usage: current.usage,
      costUsd: current.costUsd,
      stop: current.stop,
      reflections: current.reflections,
      // The highest score any step has reached, as GroveBestScore says while the run goes on (docs/runs.md, "The figures").
      bestScore: highestScore(current.tree),
      budget: options.budget,
    }));

    let outcome = await runSearch(search, {
      beforeStep: async () => {
        await steering.apply(search);
        if (current.stop || !historyIsLong()) return 'continue';
        if (policy && current.counters.handovers >= policy.maxGenerations) {
          return { kind: 'maxGenerations', message: `The search handed over ${current.counters.handovers} times, the operator's limit (maxGenerations).` };
        }
        return 'handover';
      },
    });
    if (outcome === 'handover') {
      await steering.settle(search);
      if (!current.stop) {
        current.counters.handovers += 1;
        const registry = registryToCarry();
        return registry
          ? await continueAsNew<typeof agent>(input, search.handoverJSON(), steering.log.toJSON(), registry)
          : await continueAsNew<typeof agent>(input, search.handoverJSON(), steering.log.toJSON());
      }
      outcome = searchOutcome(search);
    }
    steering.finish(`the search has ended (${outcome.stop.kind})`);
    const messages = await port.resolvePath(trajectoryInput(current.tree, outcome.bestId));
    const counters = { calls: current.counters.llmCalls, tokens: current.usage.totalTokens, bestScore: outcome.score };
    const result = fitResult('agent', { ...agentResult(options, current, outcome, messages), ...(steering.log.list.length > 0 ? { actions: steering.log.toJSON() } : {}) });
    // A person's stop is its own ending: the run returns its best so far, not what its budget bought.
    reportRun({ status: endedStatus(outcome.isSolution, outcome.stop.kind === 'stopped'), ...counters });
    return result;
  } catch (err) {
    failRun(err, final(), LlmSettingsSchema.parse(options.llm ?? {}));
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
    // Only a finished trajectory (a text answer, or a terminal tool's call) has an answer.
    answer: state.tree.node(outcome.bestId).data.output ? finalAnswer(messages) : undefined,
    score: outcome.score,
    isSolution: outcome.isSolution,
    verdict: agentVerdict(options, state, outcome.score),
    bestNodeId: outcome.bestId,
    nodes: state.tree.size,
    stop: outcome.stop,
    counters: state.counters,
    usage: state.usage,
    costUsd: state.costUsd,
    reflections: state.reflections,
    tree: includeTree(options.resultTree, state.tree.size) ? state.tree.toJSON() : undefined,
    treeText: formatSearchTree(state.tree, { bestId: outcome.bestId, solutionId: outcome.isSolution ? outcome.bestId : undefined, maxNodes: RESULT_TEXT_NODES }),
  };
}

/** Who decided: the run's evaluator; for the LLM judge, which model, and whether it judged its own model's answers. */
function agentVerdict(options: AgentOptions, state: SearchState, score: number): Verdict {
  const judge = (options.evaluator as { model?: string }).model;
  return evaluatorVerdict(options.evaluator.name, { answer: options.model, judge, reportedAnswer: state.models.answer, reportedJudge: state.models.judge }, score);
}

/** `agent:<algorithm>` as far as an input that may be invalid says. */
function agentKind(raw: unknown): string {
  const algorithm = (raw as { algorithm?: unknown } | null)?.algorithm;
  return typeof algorithm === 'string' && /^[a-z]{1,10}$/.test(algorithm) ? `agent:${algorithm}` : 'agent';
}
