import { budgetFromSpec, costOf, firstStop, type StopCondition } from '../../budget';
import type { Usage } from '../../schemas/messages';
import type { AgentOptions } from '../agent-options';
import type { SearchStop } from '../search-state';
import type { SearchEnv } from './search-ops';

/** Thrown inside a step when the budget cannot pay for what comes next; the search then ends with its best node so far. */
export class StopSearch extends Error {
  constructor(readonly stop: SearchStop) {
    super(stop.message);
    this.name = 'StopSearch';
  }
}

/** What one expansion asks for: `k` candidates, each evaluated, or (a budget plan) only a finished one. */
export interface ExpansionPlan {
  k: number;
  evaluate: boolean;
}

/**
 * A search's model-call budget: what the next step may spend, and the calls promised to steps
 * under way. A step starts only if its calls fit in `maxCalls`, so that budget is never
 * exceeded; tokens, cost and time are checked before each step (a step may overrun them once).
 *
 * @example
 * const budget = new CallBudget(env);
 * const { k, evaluate } = budget.planExpansion(nodeId); // throws StopSearch when nothing fits
 */
export class CallBudget {
  /**
   * Model calls promised to expansions and reflections under way (parallel search): counted by
   * `budgetStop` like calls made, so concurrent steps never overspend `maxCalls` together.
   * Always 0 between steps, so it never travels in a handover.
   */
  reserved = 0;
  private conditions: StopCondition[] = [];
  private conditionsOf?: AgentOptions['budget'] | null;

  constructor(private readonly env: SearchEnv) {}

  /** Candidates per expansion: `bFactor`, or one when the algorithm follows a single step. */
  get bFactor(): number {
    return this.env.traits.candidatesPerStep === 1 ? 1 : this.env.options.bFactor;
  }

  /** Whether children are evaluated as they are made (the algorithm's trait). */
  evaluates(): boolean {
    return this.env.traits.evaluatesChildren;
  }

  /** Model calls one expansion of `k` candidates may make: the candidates call, plus one per child with the LLM evaluator. */
  expansionCalls(k = this.bFactor): number {
    return 1 + (this.evaluates() && this.env.options.evaluator.name === 'llm' ? k : 0);
  }

  /** Why the search must stop before spending `plannedCalls` more model calls, if it must. */
  budgetStop(plannedCalls: number): SearchStop | undefined {
    const { state, options, port } = this.env;
    const max = options.budget?.maxCalls;
    const calls = state.counters.llmCalls + this.reserved;
    if (max !== undefined && calls + plannedCalls > max) {
      return { kind: 'maxCalls', message: `Maximum calls reached (calls: ${calls}/${max}; the next step needs ${plannedCalls}).` };
    }
    const stop = firstStop(this.stopConditions(), {
      calls,
      retries: 0,
      promptTokens: state.usage.promptTokens,
      completionTokens: state.usage.completionTokens,
      costUsd: state.costUsd,
      nowMs: port.nowMs(),
      startedAtMs: state.startedAtMs,
    });
    return stop ? { kind: stop.kind as SearchStop['kind'], message: stop.message } : undefined;
  }

  ensureBudget(plannedCalls: number): void {
    const stop = this.budgetStop(plannedCalls);
    if (stop) throw new StopSearch(stop);
  }

  /**
   * How many candidates the next expansion may ask for: `bFactor` when the whole expansion fits
   * the call budget; with anytime budgets, fewer when only a smaller one fits (at least one
   * candidate and its evaluation); otherwise the search stops.
   */
  affordableCandidates(): number {
    const full = this.expansionCalls();
    if (!this.env.behaviour.anytime || !this.budgetStop(full)) {
      this.ensureBudget(full);
      return this.bFactor;
    }
    const perChild = full > 1 ? 1 : 0;
    for (let k = this.bFactor - 1; k >= 1; k--) if (!this.budgetStop(1 + perChild * k)) return k;
    this.ensureBudget(full);
    return this.bFactor;
  }

  /**
   * The next expansion of a node at `depth`: how many candidates, and whether each is evaluated
   * (see `SearchBehaviour.plannedWidth`); stops the search when not even one candidate fits.
   */
  planExpansion(depth: number): ExpansionPlan {
    const { state, options, behaviour, traits } = this.env;
    const k = this.affordableCandidates();
    const max = options.budget?.maxCalls;
    if (!behaviour.plannedWidth || max === undefined || !traits.plannedWidth || options.evaluator.name !== 'llm') {
      return { k, evaluate: true };
    }
    const left = max - state.counters.llmCalls - this.reserved;
    // Steps after this one to the deepest a trajectory may go; then one call each and the evaluation of the answer.
    const after = Math.max(0, options.maxDepth - depth - 1);
    const finish = after > 0 ? after + 1 : 0;
    for (let w = k; w >= 1; w--) if (this.expansionCalls(w) + finish <= left) return { k: w, evaluate: true };
    return { k: 1, evaluate: false };
  }

  /** The budget's stop conditions, rebuilt when `options.budget` was replaced (a resume with a bigger budget). */
  private stopConditions(): StopCondition[] {
    const budget = this.env.options.budget ?? null;
    if (this.conditionsOf !== budget) {
      const { maxCalls: _calls, ...rest } = budget ?? {};
      this.conditions = budgetFromSpec(rest);
      this.conditionsOf = budget;
    }
    return this.conditions;
  }
}

/** Counts a model call's tokens (and cost, when the run has pricing) against the search. */
export function spend(env: SearchEnv, usage: Usage): void {
  env.state.addUsage(usage, env.options.pricing ? costOf(usage, env.options.pricing) : 0);
}
