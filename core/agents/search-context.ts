import { budgetFromSpec, costOf, firstStop, type StopCondition } from '../budget';
import { shorten } from '../conversation/preview';
import { droppedCallsAnswer, runnableCalls } from '../conversation/fit-message';
import { messageRef, pathRef, type PathRecord, type Ref } from '../hash/refs';
import type { EvaluateResult, RunToolResult } from '../schemas/agent-activities';
import type { ChatParams, ToolDefinition } from '../schemas/chat-params';
import { assistantMessage, messageText, userMessage, type AssistantMessage, type ToolCall, type Usage } from '../schemas/messages';
import type { ConversationInput } from '../hash/conversation-refs';
import { InvalidArgumentError } from '../errors';
import { rewindTree } from '../steering/rewind-tree';
import { rejectionMessage, type ApprovalOutcome } from '../steering/approvals';
import { ALGORITHM_IMPLEMENTATIONS } from './algorithms';
import { solved } from './algorithms/search-algorithm';
import type { TreeNode } from '../tree/tree-node';
import type { AgentNode } from './agent-node';
import type { AgentOptions } from './agent-options';
import type { AgentPort } from './agent-port';
import { selectCandidates } from './candidates';
import { mapLimit } from './map-limit';
import { markWritten, refOf, trajectoryInput } from './path-book';
import { endsTrajectory, isOutputMessage, isSolution, isTerminal, type TerminationRules } from './predicates';
import type { SearchState, SearchStateJSON, SearchStop } from './search-state';
import { bestNode } from './best-node';
import { evaluationData, noteEvaluation } from './evaluation-failures';
import { traced } from '../trace-span';

/**
 * Changes to how a search spends, each of which a workflow turns on behind a patch so runs
 * recorded before keep deciding as they did.
 */
export interface SearchBehaviour {
  /**
   * Anytime budgets: when a whole expansion no longer fits in `maxCalls`, the last one asks for
   * fewer candidates (each scored by one LLM evaluation) instead of stopping with budget left.
   */
  anytime: boolean;
  /**
   * Expansions that run side by side (a beam level) attach their children in a fixed order
   * rather than as their calls finish, so node ids do not depend on timing.
   */
  orderedRounds: boolean;
  /**
   * Planned width (MCTS and greedy, LLM evaluator, a `maxCalls` budget): each expansion is the
   * widest that still leaves enough calls to finish the trajectory — one candidate per step down
   * to `maxDepth`, plus one evaluation of the answer. When not even one evaluated candidate
   * leaves that, the step is a single unevaluated candidate (only a finished answer is
   * evaluated), as chain-of-thought does. A tight budget then buys a finished answer with its
   * best-chosen first steps rather than a wide tree that stops halfway. `maxDepth` is the
   * estimate on purpose: the depth of answers seen so far is fooled by early guesses, and the
   * task's real depth is not known.
   */
  plannedWidth: boolean;
  /**
   * A failed evaluation (a custom evaluator's bad score or throw, an LLM judge with no usable
   * score) fails that node, not the search: it is recorded on the node, which is never a
   * solution; the run fails, naming the evaluator, only when every evaluation failed.
   */
  evaluationFailures: boolean;
}

/** Thrown inside a step when the budget cannot pay for what comes next; the search then ends with its best node so far. */
export class StopSearch extends Error {
  constructor(readonly stop: SearchStop) {
    super(stop.message);
    this.name = 'StopSearch';
  }
}

export const REFLECTION_SYSTEM_PROMPT =
  'You review a failed attempt of an AI agent that uses tools. Be concrete and brief.';
export const REFLECTION_INSTRUCTION =
  'This attempt did not solve the task. In at most two sentences, say what went wrong and what to do differently next time.';
const MAX_REFLECTIONS = 3;

/**
 * Default `max_tokens` of a candidate step (override with `apiKwargs.max_tokens`). Without a
 * ceiling a small model answered one step with ~1,000 words, paid for in every expansion.
 */
export const CANDIDATE_MAX_TOKENS = 512;

/**
 * The operations every search algorithm is built from — expand a node, reflect on a failed
 * trajectory, check the budget — over one search state and one port. Deterministic given the
 * port's answers.
 */
export class SearchContext {
  readonly rules: TerminationRules;
  private conditions: StopCondition[] = [];
  private conditionsOf?: AgentOptions['budget'] | null;
  /**
   * Model calls promised to expansions and reflections under way (parallel search): counted by
   * `budgetStop` like calls made, so concurrent steps never overspend `maxCalls` together.
   * Always 0 between steps, so it never travels in a handover.
   */
  private reserved = 0;

  /** Behaviour changes a workflow turns on behind patches (all on in process). */
  readonly behaviour: SearchBehaviour;

  constructor(
    readonly state: SearchState,
    readonly options: AgentOptions,
    readonly port: AgentPort,
    behaviour: Partial<SearchBehaviour> = {},
  ) {
    this.behaviour = { anytime: true, orderedRounds: true, plannedWidth: true, evaluationFailures: true, ...behaviour };
    this.rules = { threshold: options.threshold, maxDepth: options.maxDepth, toolChoice: options.toolChoice, specs: state.specs };
  }

  /** The budget's stop conditions, rebuilt when `options.budget` was replaced (a resume with a bigger budget). */
  private stopConditions(): StopCondition[] {
    const budget = this.options.budget ?? null;
    if (this.conditionsOf !== budget) {
      const { maxCalls: _calls, ...rest } = budget ?? {};
      this.conditions = budgetFromSpec(rest);
      this.conditionsOf = budget;
    }
    return this.conditions;
  }

  /** Candidates per expansion: `bFactor`, or 1 for chain-of-thought. */
  get bFactor(): number {
    return this.options.algorithm === 'cot' ? 1 : this.options.bFactor;
  }

  get tree() {
    return this.state.tree;
  }

  node(id: number): TreeNode<AgentNode> {
    return this.state.tree.node(id);
  }

  isTerminal(id: number): boolean {
    return isTerminal(this.node(id), this.rules);
  }

  isSolution(id: number): boolean {
    return isSolution(this.node(id), this.rules);
  }

  /** Model calls one expansion of `k` candidates may make: the candidates call, plus one per child with the LLM evaluator. */
  expansionCalls(k = this.bFactor): number {
    return 1 + (this.evaluates() && this.options.evaluator.name === 'llm' ? k : 0);
  }

  /**
   * Why the search must stop before spending `plannedCalls` more model calls, if it must. A
   * step starts only if its calls fit in `maxCalls`, so that budget is never exceeded; tokens,
   * cost and time are checked before each step (a step may overrun them once).
   */
  budgetStop(plannedCalls: number): SearchStop | undefined {
    const max = this.options.budget?.maxCalls;
    const calls = this.state.counters.llmCalls + this.reserved;
    if (max !== undefined && calls + plannedCalls > max) {
      return { kind: 'maxCalls', message: `Maximum calls reached (calls: ${calls}/${max}; the next step needs ${plannedCalls}).` };
    }
    const stop = firstStop(this.stopConditions(), {
      calls,
      retries: 0,
      promptTokens: this.state.usage.promptTokens,
      completionTokens: this.state.usage.completionTokens,
      costUsd: this.state.costUsd,
      nowMs: this.port.nowMs(),
      startedAtMs: this.state.startedAtMs,
    });
    return stop ? { kind: stop.kind as SearchStop['kind'], message: stop.message } : undefined;
  }

  /**
   * How many candidates the next expansion may ask for: `bFactor` when the whole expansion fits
   * the call budget; with anytime budgets, fewer when only a smaller one fits (at least one
   * candidate and its evaluation); otherwise the search stops.
   */
  affordableCandidates(): number {
    const full = this.expansionCalls();
    if (!this.behaviour.anytime || !this.budgetStop(full)) {
      this.ensureBudget(full);
      return this.bFactor;
    }
    const perChild = full > 1 ? 1 : 0;
    for (let k = this.bFactor - 1; k >= 1; k--) if (!this.budgetStop(1 + perChild * k)) return k;
    this.ensureBudget(full);
    return this.bFactor;
  }

  /**
   * The next expansion of `nodeId`: how many candidates, and whether each is evaluated (see
   * {@link SearchBehaviour.plannedWidth}); stops the search when not even one candidate fits.
   */
  planExpansion(nodeId: number): ExpansionPlan {
    const k = this.affordableCandidates();
    const max = this.options.budget?.maxCalls;
    if (!this.behaviour.plannedWidth || max === undefined || !PLANNED.has(this.options.algorithm) || this.options.evaluator.name !== 'llm') {
      return { k, evaluate: true };
    }
    const left = max - this.state.counters.llmCalls - this.reserved;
    // Steps after this one to the deepest a trajectory may go; then one call each and the evaluation of the answer.
    const after = Math.max(0, this.options.maxDepth - this.node(nodeId).depth - 1);
    const finish = after > 0 ? after + 1 : 0;
    for (let w = k; w >= 1; w--) if (this.expansionCalls(w) + finish <= left) return { k: w, evaluate: true };
    return { k: 1, evaluate: false };
  }

  ensureBudget(plannedCalls: number): void {
    const stop = this.budgetStop(plannedCalls);
    if (stop) throw new StopSearch(stop);
  }

  /**
   * The state to hand over through continue-as-new, compacted: what only the live UI needs is
   * dropped — each node's evaluator reasoning, and the previews of nodes off the best
   * trajectory so far — and so are the trajectory refs of finished leaves off it (no search
   * expands a terminal node, and the final answer is the best node so far or a newer one) and of
   * branches a rewind abandoned. A
   * search of 10,000 nodes then hands over well under Temporal's payload limits.
   */
  handoverJSON(): SearchStateJSON {
    const json = this.state.toJSON();
    const keep = new Set(this.tree.pathToRoot(this.state.solutionId ?? bestNode(this.tree).id).map((n) => n.id));
    for (const tuple of json.tree.nodes) {
      const id = tuple[0];
      if (keep.has(id)) {
        const { reasoning: _r, ...rest } = tuple[2];
        tuple[2] = rest;
        continue;
      }
      const { reasoning: _r, preview: _p, ref, ...rest } = tuple[2];
      const node = this.node(id);
      if (node.abandoned) {
        // Pruned by a rewind: never expanded or resolved again.
        const { pending: _q, inline: _i, ...kept } = rest;
        tuple[2] = kept;
        continue;
      }
      const closed = node.children.length === 0 && this.isTerminal(id) && !rest.pending;
      tuple[2] = closed ? rest : { ...rest, ref };
    }
    return json;
  }

  /**
   * The system prompt for expanding `nodeId`: with the latest reflections on failed attempts
   * (LATS), and the feedback people gave on the node and the steps before it (`feedback` and
   * `rewind` updates), which every later expansion below those steps sees.
   */
  system(nodeId?: number): string {
    let system = this.options.system;
    if (this.state.reflections.length > 0) {
      system += `\n\nReflections on earlier failed attempts (avoid repeating these mistakes):\n${this.state.reflections.map((r) => `- ${r}`).join('\n')}`;
    }
    const feedback = nodeId === undefined ? [] : this.tree.pathFromRoot(nodeId).filter((n) => n.feedback !== '');
    if (feedback.length > 0) {
      system += `\n\nFeedback from a person on the steps so far (follow it):\n${feedback.map((n) => `- ${n.feedback.replace(/\n/g, '\n- ')}`).join('\n')}`;
    }
    return system;
  }

  /**
   * Why a person's rewind of a node cannot apply, if it cannot: an unknown or abandoned node, a
   * replaced prompt, or a finished node to re-expand (nothing grows from it).
   */
  rewindProblem(request: { nodeId: number; content?: string }): string | undefined {
    const node = this.tree.findNode(request.nodeId);
    if (!node) return `there is no node n${request.nodeId} (the tree has n0 to n${this.tree.nextId - 1})`;
    if (node.abandoned) return `n${node.id} is on an abandoned branch: choose a node of the live tree (grove tree)`;
    if (request.content !== undefined) {
      return node.parent === null ? 'n0 is the prompt: only steps can be replaced (rewind it without content to search again from the prompt)' : undefined;
    }
    if (this.isTerminal(node.id)) {
      return `n${node.id} is finished (${node.data.output ? 'an answer' : 'at the maximum depth'}), so nothing expands from it: rewind its parent n${node.parent} to get new steps there, or replace it with content`;
    }
    return undefined;
  }

  /**
   * A person's rewind (see `rewindTree`): prune what grew from the node and re-expand it next —
   * with `content`, the node's step is replaced by that answer first (evaluated like any step;
   * a solution ends the search); with `feedback`, the node's later expansions see it.
   *
   * @throws InvalidArgumentError naming why it cannot apply (see {@link rewindProblem}).
   */
  async rewind(request: { nodeId: number; content?: string; feedback?: string }): Promise<{ resumeFrom: number; abandoned: number[]; replacementId?: number }> {
    const problem = this.rewindProblem(request);
    if (problem) throw new InvalidArgumentError(problem);
    let replacement: AgentNode | undefined;
    if (request.content !== undefined) {
      const message = assistantMessage(request.content);
      const record: PathRecord = { parent: refOf(this.tree, this.node(request.nodeId).parent!), add: [messageRef(message)] };
      replacement = { ref: pathRef(record), pending: record, inline: [message], preview: previewOf(message), output: true };
    }
    const { resumeFrom, abandoned, replacementId } = rewindTree(this.tree, { nodeId: request.nodeId, replacement, feedback: request.feedback });
    if (replacementId !== undefined && this.evaluates()) await this.evaluateNode(replacementId);
    if (replacementId !== undefined && this.isSolution(replacementId)) solved(this, replacementId);
    else ALGORITHM_IMPLEMENTATIONS[this.options.algorithm].resume(this, resumeFrom);
    return { resumeFrom, abandoned, ...(replacementId !== undefined ? { replacementId } : {}) };
  }

  /**
   * Expands a node: one model call for `bFactor` candidates, deduplicated; every tool call of
   * every candidate runs (as its own activity); each child is evaluated; the children are
   * attached in candidate order with their scores. A terminal node gets no children.
   */
  async expand(nodeId: number): Promise<number[]> {
    return (await this.prepareExpansion(nodeId))();
  }

  /**
   * An expansion whose children are not attached yet: every call is made, and the returned
   * function attaches the children to the tree. Parallel searches run several at once and attach
   * them in an order of their own (not the order their calls happened to finish), so the tree's
   * node ids — and every later decision — do not depend on timing. The candidates are counted
   * against the budget (reserved) before the first call goes out.
   */
  async prepareExpansion(nodeId: number): Promise<() => number[]> {
    const node = this.node(nodeId);
    if (this.isTerminal(nodeId)) return () => [];
    const plan = this.planExpansion(nodeId);
    const reserve = this.expansionCalls(plan.k);
    this.reserved += reserve;
    const span = this.port.startSpan?.('grove.expand', { 'grove.node.id': nodeId, 'grove.node.depth': node.depth, 'grove.expansion.width': plan.k });
    try {
      const attach = await (span ? span.within(() => this.expandReserved(nodeId, node.depth, plan)) : this.expandReserved(nodeId, node.depth, plan));
      if (!span) return attach;
      // The span ends once the children are attached, naming them and their scores.
      return () => {
        const ids = attach();
        span.end({ 'grove.node.children': ids, 'grove.node.scores': ids.map((id) => this.node(id).score ?? -1) });
        return ids;
      };
    } catch (err) {
      span?.end(undefined, err);
      throw err;
    } finally {
      this.reserved -= reserve;
    }
  }

  private async expandReserved(nodeId: number, depth: number, { k, evaluate }: ExpansionPlan): Promise<() => number[]> {
    const offered = await this.offeredTools(nodeId);
    const input = trajectoryInput(this.tree, nodeId);
    const result = await this.port.chat(
      { conversation: input, model: this.options.model, params: this.candidateParams(offered, k), system: this.system(nodeId), runId: `n${nodeId}` },
      `expand n${nodeId} (depth ${depth}): ${k} candidate${k === 1 ? '' : 's'}${!evaluate && this.evaluates() ? ', evaluated only if it ends the trajectory (budget plan)' : k < this.bFactor ? ' (the rest of the budget)' : ''}`,
    );
    markWritten(this.tree, nodeId, input);
    this.state.models.answer = result.model;
    this.state.counters.llmCalls += 1;
    this.state.counters.expansions += 1;
    this.spend(result.usage);

    const refs = new Map(result.choices.map((c) => [c.message, c.ref] as const));
    const chosen = selectCandidates(result.choices.map((c) => c.message), k);
    const children = await mapLimit(chosen, this.options.maxConcurrency, (message, i) =>
      this.buildChild(nodeId, message, refs.get(message)!, offered, `${i + 1}/${chosen.length}`, evaluate),
    );
    return () =>
      children.map(({ data, evaluation }) => {
        const child = this.tree.expand(nodeId, data);
        if (evaluation) this.tree.setScore(child.id, compactScore(evaluation.score));
        return child.id;
      });
  }

  /**
   * A round of a parallel search: expands several nodes at once and attaches their children in
   * the order given, whatever order the calls finish in. Launched in order, each reserving its
   * calls before the next is priced: the first always launches (it may stop the search — nothing
   * else is under way then), later ones only while the budget has room for a candidate and its
   * evaluation. Returns the children of the nodes launched, a prefix of `ids`; the rest wait for
   * a later round.
   */
  async expandRound(ids: number[]): Promise<number[][]> {
    const launched: Array<Promise<() => number[]>> = [];
    for (const id of ids) {
      if (launched.length > 0 && this.budgetStop(this.expansionCalls(1))) break;
      launched.push(this.prepareExpansion(id));
    }
    return (await Promise.all(launched)).map((attach) => attach());
  }

  /** LATS reflection on a failed terminal trajectory; the latest few are shown to later expansions. */
  async reflect(nodeId: number): Promise<void> {
    const text = await this.reflection(nodeId);
    if (text) this.addReflection(text);
  }

  /** Keeps a reflection for later expansions (the latest few). */
  addReflection(text: string): void {
    this.state.reflections = [...this.state.reflections, text].slice(-MAX_REFLECTIONS);
  }

  /**
   * A reflection on a failed terminal trajectory, not yet kept (parallel searches keep theirs in
   * a fixed order); '' when reflection is off or the budget has no call left for it.
   */
  async reflection(nodeId: number): Promise<string> {
    if (!this.options.reflection || this.budgetStop(1)) return '';
    this.reserved += 1;
    try {
      return await traced(this.port.startSpan?.('grove.reflect', { 'grove.node.id': nodeId }), () => this.reflectReserved(nodeId));
    } finally {
      this.reserved -= 1;
    }
  }

  private async reflectReserved(nodeId: number): Promise<string> {
    const node = this.node(nodeId);
    const instruction = userMessage(
      `${REFLECTION_INSTRUCTION}${node.data.reasoning ? `\nThe evaluator scored it ${fmt(node.score)} and said: ${node.data.reasoning}` : ''}`,
    );
    const record: PathRecord = { parent: refOf(this.tree, nodeId), add: [messageRef(instruction)] };
    const input = trajectoryInput(this.tree, nodeId, { record, messages: [instruction] });
    const result = await this.port.chat(
      { conversation: input, model: this.options.model, params: { temperature: 0.7, max_tokens: 300 }, system: REFLECTION_SYSTEM_PROMPT, runId: `reflect-n${nodeId}` },
      `reflect on n${nodeId} (score ${fmt(node.score)})`,
    );
    markWritten(this.tree, nodeId, input);
    this.state.counters.llmCalls += 1;
    this.state.counters.reflections += 1;
    this.spend(result.usage);
    return (result.choices[0]?.message.content ?? '').replace(/\s+/g, ' ').trim().slice(0, 500);
  }

  /** Whether children are evaluated (chain-of-thought scores only its final node). */
  evaluates(): boolean {
    return this.options.algorithm !== 'cot';
  }

  /** Evaluates one node after the fact (chain-of-thought's final answer). */
  async evaluateNode(nodeId: number): Promise<void> {
    const input = trajectoryInput(this.tree, nodeId);
    const span = this.port.startSpan?.('grove.evaluate', { 'grove.node.id': nodeId });
    const evaluation = await traced(span, () => this.runEvaluation(input, `evaluate n${nodeId}`), (e) => ({ 'grove.score': e.score }));
    markWritten(this.tree, nodeId, input);
    this.tree.setScore(nodeId, compactScore(evaluation.score));
    this.tree.setData(nodeId, { ...this.node(nodeId).data, ...evaluationData(evaluation) });
  }

  private async buildChild(nodeId: number, message: AssistantMessage, assistantRef: Ref, offered: string[], label: string, evaluate: boolean) {
    const calls = runnableCalls(message);
    let tools: (RunToolResult & { refused?: boolean })[] = [];
    if (calls.length > 0) {
      const input = trajectoryInput(this.tree, nodeId);
      tools = await Promise.all(
        calls.map((call) => this.runTool(call, input, offered, `n${nodeId} candidate ${label}`, `tool ${call.function.name} for n${nodeId} candidate ${label}`)),
      );
      markWritten(this.tree, nodeId, input);
      this.state.counters.toolRuns += tools.filter((t) => !t.refused).length;
    }
    // Calls grove dropped (too many in one answer) get one answer, written here: no tool ran.
    const dropped = droppedCallsAnswer(message);
    if (dropped) tools.push({ message: dropped, ref: messageRef(dropped), isError: true, refused: true });
    this.state.counters.toolErrors += tools.filter((t) => t.isError).length;
    const record: PathRecord = { parent: refOf(this.tree, nodeId), add: [assistantRef, ...tools.map((t) => t.ref)] };
    const data: AgentNode = { ref: pathRef(record), pending: record, preview: previewOf(message) };
    const refusals = tools.filter((t) => t.refused).map((t) => t.message);
    if (refusals.length > 0) data.inline = refusals;
    if (isOutputMessage(message, this.state.specs)) data.output = true;
    const errors = tools.filter((t) => t.isError).length;
    if (errors > 0) data.toolErrors = errors;
    let evaluation: EvaluateResult | undefined;
    if (this.evaluates() && (evaluate || endsTrajectory(data, this.node(nodeId).depth + 1, this.rules))) {
      const input = trajectoryInput(this.tree, nodeId, { record, messages: data.inline });
      evaluation = await this.runEvaluation(input, `evaluate n${nodeId} candidate ${label}: ${data.preview}`);
      markWritten(this.tree, nodeId, input);
      delete data.pending;
      delete data.inline;
      Object.assign(data, evaluationData(evaluation));
    }
    return { data, evaluation };
  }

  /**
   * Runs one tool call — after a person approved it, when its tool requires approval; a refused
   * call is answered with a tool message saying so (written by no activity: it rides inline).
   */
  private async runTool(call: ToolCall, trajectory: ConversationInput, offered: string[], where: string, summary: string): Promise<RunToolResult & { refused?: boolean }> {
    const spec = this.state.specs.find((s) => s.name === call.function.name);
    if (!spec?.requiresApproval || !offered.includes(spec.name)) return this.port.runTool({ trajectory, call, offered }, summary, spec?.fast && offered.includes(spec.name) ? { fast: true } : undefined);
    const outcome: ApprovalOutcome = this.port.approve
      ? await this.port.approve({ call, where })
      : { decision: 'reject', by: 'nobody', at: this.port.nowMs(), reason: 'nobody can approve calls in this run' };
    if (outcome.decision === 'reject') {
      const message = rejectionMessage(call, outcome);
      return { message, ref: messageRef(message), isError: true, refused: true };
    }
    return this.port.runTool({ trajectory, call, offered, approval: { by: outcome.by, at: outcome.at } }, summary);
  }

  private async runEvaluation(trajectory: ReturnType<typeof trajectoryInput>, summary: string): Promise<EvaluateResult> {
    const evaluation = await this.port.evaluate({ evaluator: this.options.evaluator, trajectory }, summary);
    this.state.counters.evaluations += 1;
    if (this.options.evaluator.name === 'llm') this.state.counters.llmCalls += 1;
    this.spend(evaluation.usage);
    const failed = noteEvaluation(this.state, this.options.evaluator.name, evaluation, this.behaviour.evaluationFailures);
    return failed === undefined ? { ...evaluation, failed: undefined } : { ...evaluation, failed };
  }

  private async offeredTools(nodeId: number): Promise<string[]> {
    const names = this.state.specs.map((s) => s.name);
    if (!this.state.specs.some((s) => s.hasIsActive)) return names;
    const input = trajectoryInput(this.tree, nodeId);
    const active = await this.port.activeTools({ names, trajectory: input }, `active tools at n${nodeId}`);
    markWritten(this.tree, nodeId, input);
    return active;
  }

  private candidateParams(offered: string[], n = this.bFactor): ChatParams {
    const tools: ToolDefinition[] = this.state.specs
      .filter((s) => offered.includes(s.name))
      .map((s) => ({ type: 'function', function: { name: s.name, description: s.description, parameters: s.parameters, ...(s.strict ? { strict: true } : {}) } }));
    const params: ChatParams = { ...(this.options.apiKwargs ?? {}), n };
    params.temperature = this.options.apiKwargs?.temperature ?? 1;
    // One step of a trajectory, not an essay: a default ceiling unless apiKwargs sets its own.
    if (params.max_tokens === undefined && params.max_completion_tokens === undefined) params.max_tokens = CANDIDATE_MAX_TOKENS;
    if (this.options.seed !== undefined) params.seed = this.options.seed;
    if (tools.length > 0) {
      params.tools = tools;
      params.tool_choice = this.options.toolChoice;
      if (this.options.parallelToolCalls) params.parallel_tool_calls = true;
    }
    return params;
  }

  private spend(usage: Usage): void {
    this.state.addUsage(usage, this.options.pricing ? costOf(usage, this.options.pricing) : 0);
  }
}

/** What one expansion asks for: `k` candidates, each evaluated, or (a budget plan) only a finished one. */
export interface ExpansionPlan {
  k: number;
  evaluate: boolean;
}

/** The algorithms whose simulation follows one child at a time, so an unevaluated step still leads somewhere. */
const PLANNED = new Set(['mcts', 'greedy']);

/** A short label of a step: `multiply({"a":2,"b":3})`, or the text answer quoted. */
export function previewOf(message: AssistantMessage): string {
  const calls = message.tool_calls ?? [];
  const text = calls.length > 0 ? calls.map((c) => `${c.function.name}(${c.function.arguments.replace(/\s+/g, '')})`).join(', ') : JSON.stringify(messageText(message));
  return shorten(text, 40);
}

/** Node state stays small (it travels through continue-as-new): scores in [0, 1] to 4 decimals (texts: see `evaluationData`). */
function compactScore(x: number): number {
  return Number.isFinite(x) ? Math.round(Math.min(1, Math.max(0, x)) * 1e4) / 1e4 : 0;
}

function fmt(score: number | undefined): string {
  return score === undefined ? '?' : score.toFixed(2);
}
