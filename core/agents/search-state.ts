import { ZERO_USAGE, addUsage } from '../budget';
import type { ToolSpec } from '../schemas/agent-activities';
import type { SampleTreeJSON } from '../schemas/tree';
import type { Message, Usage } from '../schemas/messages';
import { SampleTree } from '../tree/sample-tree';
import type { AgentNode } from './agent-node';
import type { z } from 'zod';
import { startFromFork, type ForkOrigin, type ForkOriginSchema } from '../runs/fork';
import { createAgentTree, refOf } from './path-book';

export interface SearchCounters {
  llmCalls: number;
  toolRuns: number;
  toolErrors: number;
  evaluations: number;
  reflections: number;
  expansions: number;
  steps: number;
  handovers: number;
  /** Evaluations that failed (a custom evaluator's bad score or throw, an LLM judge with no usable score). */
  evaluationFailures?: number;
}

/** The models a search has heard from, as the provider named them: who answered, and who judged. */
export interface SearchModels {
  answer?: string;
  judge?: string;
}

export type StopKind = 'solved' | 'exhausted' | 'maxRollouts' | 'maxCalls' | 'maxTokens' | 'maxCost' | 'deadline' | 'maxGenerations' | 'stopped';

export interface SearchStop {
  kind: StopKind;
  message: string;
}

/**
 * Everything a search carries from one step to the next — and through continue-as-new, as
 * JSON: the tree (refs and stats, no messages), the tool specs, the algorithm's own state,
 * counters, spend and reflections.
 */
export class SearchState {
  usage: Usage = ZERO_USAGE;
  costUsd = 0;
  counters: SearchCounters = { llmCalls: 0, toolRuns: 0, toolErrors: 0, evaluations: 0, reflections: 0, expansions: 0, steps: 0, handovers: 0 };
  reflections: string[] = [];
  models: SearchModels = {};
  algo: Record<string, unknown> = {};
  solutionId?: number;
  stop?: SearchStop;
  /** The node the search starts from: the root, or the node a fork continues at. */
  origin?: number;

  constructor(
    readonly tree: SampleTree<AgentNode>,
    readonly specs: ToolSpec[],
    readonly startedAtMs: number,
  ) {}

  static create(prompt: Message[], specs: ToolSpec[], startedAtMs: number): SearchState {
    return new SearchState(createAgentTree(prompt), specs, startedAtMs);
  }

  /**
   * A search that continues another run's tree at `fork.nodeId` (see `ForkOrigin`): the carried
   * path (and subtree) with its scores and stats, fresh counters and spend — the fork pays only
   * for what it does itself.
   *
   * @example
   * const state = SearchState.fromFork(options.fork, specs, Date.now());
   */
  static fromFork(fork: ForkOrigin<AgentNode> | z.infer<typeof ForkOriginSchema>, specs: ToolSpec[], startedAtMs: number): SearchState {
    const { tree, nodeId } = startFromFork<AgentNode>(fork);
    refOf(tree, nodeId);
    const state = new SearchState(tree, specs, startedAtMs);
    state.origin = nodeId;
    return state;
  }

  /** The node the search starts from. */
  get originId(): number {
    return this.origin ?? this.tree.rootId;
  }

  addUsage(usage: Usage, costUsd: number): void {
    this.usage = addUsage(this.usage, usage);
    this.costUsd += costUsd;
  }

  toJSON(): SearchStateJSON {
    const tree = this.tree.toJSON();
    return {
      tree,
      specs: this.specs,
      startedAtMs: this.startedAtMs,
      usage: this.usage,
      costUsd: this.costUsd,
      counters: this.counters,
      reflections: this.reflections,
      ...(this.models.answer !== undefined || this.models.judge !== undefined ? { models: this.models } : {}),
      algo: this.algo,
      solutionId: this.solutionId,
      ...(this.origin !== undefined ? { origin: this.origin } : {}),
    };
  }

  static fromJSON(json: SearchStateJSON): SearchState {
    const state = new SearchState(SampleTree.fromJSON<AgentNode>(json.tree), json.specs, json.startedAtMs);
    state.usage = json.usage;
    state.costUsd = json.costUsd;
    state.counters = { ...json.counters };
    state.reflections = [...json.reflections];
    state.models = { ...json.models };
    state.algo = json.algo;
    state.solutionId = json.solutionId;
    state.origin = json.origin;
    return state;
  }
}

export interface SearchStateJSON {
  tree: SampleTreeJSON<AgentNode>;
  specs: ToolSpec[];
  startedAtMs: number;
  usage: Usage;
  costUsd: number;
  counters: SearchCounters;
  reflections: string[];
  models?: SearchModels;
  algo: Record<string, unknown>;
  solutionId?: number;
  origin?: number;
}
