import { ZERO_USAGE, addUsage } from '../budget';
import type { ToolSpec } from '../schemas/agent-activities';
import type { SampleTreeJSON } from '../schemas/tree';
import type { Message, Usage } from '../schemas/messages';
import { SampleTree } from '../tree/sample-tree';
import type { AgentNode } from './agent-node';
import { createAgentTree } from './path-book';

export interface SearchCounters {
  llmCalls: number;
  toolRuns: number;
  toolErrors: number;
  evaluations: number;
  reflections: number;
  expansions: number;
  steps: number;
  handovers: number;
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
  algo: Record<string, unknown> = {};
  solutionId?: number;
  stop?: SearchStop;

  constructor(
    readonly tree: SampleTree<AgentNode>,
    readonly specs: ToolSpec[],
    readonly startedAtMs: number,
  ) {}

  static create(prompt: Message[], specs: ToolSpec[], startedAtMs: number): SearchState {
    return new SearchState(createAgentTree(prompt), specs, startedAtMs);
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
      algo: this.algo,
      solutionId: this.solutionId,
    };
  }

  static fromJSON(json: SearchStateJSON): SearchState {
    const state = new SearchState(SampleTree.fromJSON<AgentNode>(json.tree), json.specs, json.startedAtMs);
    state.usage = json.usage;
    state.costUsd = json.costUsd;
    state.counters = { ...json.counters };
    state.reflections = [...json.reflections];
    state.algo = json.algo;
    state.solutionId = json.solutionId;
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
  algo: Record<string, unknown>;
  solutionId?: number;
}
