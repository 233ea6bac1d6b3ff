import type { TreeNode } from '../tree/tree-node';
import type { AgentNode } from './agent-node';
import type { AgentOptions } from './agent-options';
import type { AgentPort } from './agent-port';
import { ALGORITHM_IMPLEMENTATIONS, type SearchAlgorithm } from './algorithms';
import { solved } from './algorithms/search-algorithm';
import { isSolution, isTerminal, type TerminationRules } from './predicates';
import { CallBudget, type ExpansionPlan } from './search/budget-plan';
import { evaluateNode } from './search/evaluation';
import { expandRound, prepareExpansion } from './search/expansion';
import { handoverJSON } from './search/handover';
import { keepReflection, reflection } from './search/reflection';
import { rewindProblem, rewindSearch, type RewindRequest, type RewindResult } from './search/rewind-search';
import { CURRENT_BEHAVIOUR, type SearchBehaviour } from './search/search-behaviour';
import type { AlgorithmTraits, SearchOps } from './search/search-ops';
import type { SearchState, SearchStateJSON, SearchStop } from './search-state';

export type { ExpansionPlan } from './search/budget-plan';
export type { SearchBehaviour } from './search/search-behaviour';

/**
 * One search: its state, options and port, and its algorithm (chosen by `options.algorithm`).
 * A thin facade over the search's parts in `./search/` — the budget plan, expansion,
 * reflection, evaluation, handover compaction and rewind — which algorithms use through
 * `SearchOps`, and workflows through this class. Deterministic given the port's answers.
 *
 * @example
 * const ctx = new SearchContext(SearchState.create(prompt, specs, 0), options, port);
 * const outcome = await runSearch(ctx);
 */
export class SearchContext implements SearchOps {
  readonly rules: TerminationRules;
  /** Behaviour changes a workflow turns on behind patches (all on in process). */
  readonly behaviour: SearchBehaviour;
  readonly algorithm: SearchAlgorithm;
  readonly traits: AlgorithmTraits;
  private readonly budget: CallBudget;

  constructor(
    readonly state: SearchState,
    readonly options: AgentOptions,
    readonly port: AgentPort,
    behaviour: Partial<SearchBehaviour> = {},
  ) {
    this.behaviour = { ...CURRENT_BEHAVIOUR, ...behaviour };
    this.rules = { threshold: options.threshold, maxDepth: options.maxDepth, toolChoice: options.toolChoice, specs: state.specs };
    this.algorithm = ALGORITHM_IMPLEMENTATIONS[options.algorithm];
    this.traits = this.algorithm.traits;
    this.budget = new CallBudget(this);
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

  expansionCalls(k?: number): number {
    return this.budget.expansionCalls(k);
  }

  budgetStop(plannedCalls: number): SearchStop | undefined {
    return this.budget.budgetStop(plannedCalls);
  }

  ensureBudget(plannedCalls: number): void {
    this.budget.ensureBudget(plannedCalls);
  }

  /** The next expansion of `nodeId` (see `CallBudget.planExpansion`). */
  planExpansion(nodeId: number): ExpansionPlan {
    return this.budget.planExpansion(this.node(nodeId).depth);
  }

  /** The state to hand over through continue-as-new, compacted (see `handoverJSON`). */
  handoverJSON(): SearchStateJSON {
    return handoverJSON(this.state, this.rules);
  }

  /** Why a person's rewind of a node cannot apply, if it cannot (see `rewindProblem`). */
  rewindProblem(request: { nodeId: number; content?: string }): string | undefined {
    return rewindProblem(this.state, this.rules, request);
  }

  /** A person's rewind (see `rewindSearch`); the algorithm goes on from the rewound node. */
  rewind(request: RewindRequest): Promise<RewindResult> {
    return rewindSearch(this.state, this.rules, request, {
      evaluate: this.traits.evaluatesChildren ? (id) => this.evaluateNode(id) : undefined,
      isSolution: (id) => this.isSolution(id),
      solved: (id) => solved(this, id),
      resume: (id) => this.algorithm.resume(this, id),
    });
  }

  /** Expands a node and attaches its children (see `prepareExpansion`). */
  async expand(nodeId: number): Promise<number[]> {
    return (await this.prepareExpansion(nodeId))();
  }

  prepareExpansion(nodeId: number): Promise<() => number[]> {
    return prepareExpansion(this, this.budget, nodeId);
  }

  expandRound(ids: number[]): Promise<number[][]> {
    return expandRound(this, this.budget, ids);
  }

  evaluateNode(nodeId: number): Promise<void> {
    return evaluateNode(this, nodeId);
  }

  async reflect(nodeId: number): Promise<void> {
    const text = await this.reflection(nodeId);
    if (text) this.addReflection(text);
  }

  reflection(nodeId: number): Promise<string> {
    return reflection(this, this.budget, nodeId);
  }

  addReflection(text: string): void {
    keepReflection(this.state, text);
  }
}
