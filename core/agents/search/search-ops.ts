import type { TreeNode } from '../../tree/tree-node';
import type { AgentNode } from '../agent-node';
import type { AgentOptions } from '../agent-options';
import type { AgentPort } from '../agent-port';
import type { TerminationRules } from '../predicates';
import type { SearchState, SearchStop } from '../search-state';
import type { SearchBehaviour } from './search-behaviour';

/**
 * What an algorithm is, as the shared search code needs to know it: the algorithm says so on
 * its definition, so no shared code names an algorithm.
 */
export interface AlgorithmTraits {
  /** Candidates one expansion asks for: the run's `bFactor`, or always one (a chain follows a single step). */
  candidatesPerStep: 'bFactor' | 1;
  /** Whether each child is evaluated as it is made; when not, the algorithm evaluates the final node itself. */
  evaluatesChildren: boolean;
  /**
   * Whether a budget plan may narrow its expansions (see `SearchBehaviour.plannedWidth`): for
   * algorithms whose simulation follows one child at a time, so an unevaluated step still leads
   * somewhere.
   */
  plannedWidth: boolean;
}

/** One search's fixed surroundings, which every part of the search reads. */
export interface SearchEnv {
  readonly state: SearchState;
  readonly options: AgentOptions;
  readonly port: AgentPort;
  readonly rules: TerminationRules;
  /** Behaviour changes a workflow turns on behind patches (all on in process). */
  readonly behaviour: SearchBehaviour;
  readonly traits: AlgorithmTraits;
}

/**
 * The operations every search algorithm is built from — expand a node, reflect on a failed
 * trajectory, check the budget — over one search state and one port. Deterministic given the
 * port's answers. `SearchContext` implements it.
 */
export interface SearchOps extends SearchEnv {
  readonly tree: SearchState['tree'];
  node(id: number): TreeNode<AgentNode>;
  isTerminal(id: number): boolean;
  isSolution(id: number): boolean;
  /** Model calls one expansion of `k` candidates may make (default: a full one). */
  expansionCalls(k?: number): number;
  /** Why the search must stop before spending `plannedCalls` more model calls, if it must. */
  budgetStop(plannedCalls: number): SearchStop | undefined;
  /** Stops the search (throws `StopSearch`) when `plannedCalls` more calls do not fit. */
  ensureBudget(plannedCalls: number): void;
  /** Expands a node and attaches its children; returns their ids. */
  expand(nodeId: number): Promise<number[]>;
  /** Expands several nodes at once, attaching their children in the order given. */
  expandRound(ids: number[]): Promise<number[][]>;
  /** Evaluates one node after the fact (chain-of-thought's final answer). */
  evaluateNode(nodeId: number): Promise<void>;
  /** LATS reflection on a failed terminal trajectory, kept for later expansions. */
  reflect(nodeId: number): Promise<void>;
  /** A reflection not yet kept ('' when off or unaffordable). */
  reflection(nodeId: number): Promise<string>;
  /** Keeps a reflection for later expansions (the latest few). */
  addReflection(text: string): void;
}
