/**
 * The figures grove reports for a run, each defined once (docs/runs.md, "The figures") and
 * computed here, so that `grove run`, `result`, `progress`, `list`, `show`, their `--json`, the
 * viewer and `GroveClient` say the same number for the same run. A figure a run cannot know is
 * absent, never 0.
 *
 * - `modelCalls`: requests a model answered for the run — answers, evaluations, reflections,
 *   LLM-judge checks. A request for `n` completions is one call.
 * - `samples` (airetry, code fixer): completions drawn. A request with `n = 2` draws two. This is
 *   the unit of their `config.maxCalls` budget (the seeds' "calls").
 * - `toolRuns` (agent, session): tool calls that ran.
 * - `tokens`: prompt plus completion tokens of those calls.
 * - `best`: the score of the answer the run returns, 0-1 — an agent's returned node's evaluation,
 *   the share of airetry checks its returned answer passes, the share of tests the code fixer's
 *   returned code passes. Not the best score anywhere in the tree: a stopped search can hold a
 *   higher-scoring unfinished step (its `grove tree` shows each node's `score`).
 */
export interface RunFigures {
  modelCalls?: number;
  samples?: number;
  toolRuns?: number;
  tokens?: number;
  best?: number;
}

import { testScore, type CodeOutcome } from '../code/code-outcome';

type Json = Record<string, any>;

const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/**
 * The model calls an airetry or code-fixer result records: `modelCalls` when the run counted
 * them, else (runs from before it did) the distinct requests its samples came from — which misses
 * LLM-judge checks, so such a figure is a lower bound.
 */
function callsOfSampleRun(result: Json): number | undefined {
  if (num(result.modelCalls) !== undefined) return result.modelCalls;
  const nodes = (result.tree as { nodes?: unknown[][] } | undefined)?.nodes;
  if (!Array.isArray(nodes)) return undefined;
  const runIds = new Set<string>();
  for (const node of nodes) {
    const delta = node[2] as { add?: Array<{ runId?: string }> } | undefined;
    for (const m of delta?.add ?? []) if (typeof m.runId === 'string') runIds.add(m.runId);
  }
  return runIds.size;
}

/**
 * A completed run's figures, from its result, for each kind.
 *
 * @example
 * figuresOfResult('agent', { score: 0.2, counters: { llmCalls: 15, toolRuns: 10 }, usage: { totalTokens: 5277 } });
 * // { modelCalls: 15, toolRuns: 10, tokens: 5277, best: 0.2 }
 */
export function figuresOfResult(kind: string, result: unknown): RunFigures {
  const r = (result ?? {}) as Json;
  const tokens = num(r.usage?.totalTokens);
  const base = kind.split(':')[0];
  if (base === 'agent') return clean({ modelCalls: num(r.counters?.llmCalls), toolRuns: num(r.counters?.toolRuns), tokens, best: num(r.score) });
  if (base === 'session') return clean({ modelCalls: num(r.counters?.modelCalls), toolRuns: num(r.counters?.toolRuns), tokens });
  if (base === 'generate') return clean({ modelCalls: 1, tokens });
  if (base === 'code-fixer') {
    // No tests, no share of tests passed: running without an error is not a score.
    const tests = (r.outcome as CodeOutcome | undefined)?.tests;
    const best = r.outcome && typeof r.outcome === 'object' && (tests || !r.outcome.ok) ? testScore(r.outcome as CodeOutcome) : undefined;
    return clean({ modelCalls: callsOfSampleRun(r), samples: num(r.calls), tokens, best });
  }
  if (base === 'airetry') {
    const checks = Array.isArray(r.checks) ? (r.checks as Array<{ passed?: boolean }>) : [];
    // No answer (an extraction that never matched its schema) passes nothing, whatever its checks said.
    const answered = r.output !== undefined && r.output !== null;
    const best = r.success === true ? 1 : !answered ? 0 : checks.length ? checks.filter((c) => c.passed).length / checks.length : undefined;
    return clean({ modelCalls: callsOfSampleRun(r), samples: num(r.calls), tokens, best });
  }
  return {};
}

/**
 * A running run's figures, from its `progress` query (whose fields differ by kind).
 *
 * @example
 * figuresOfProgress('airetry', { calls: 10, modelCalls: 5, usage: { totalTokens: 298 } }); // { modelCalls: 5, samples: 10, tokens: 298 }
 * figuresOfProgress('agent:mcts', { counters: { llmCalls: 24, toolRuns: 11 }, usage: { totalTokens: 9000 }, bestScore: 0.8 }); // { modelCalls: 24, toolRuns: 11, tokens: 9000, best: 0.8 }
 */
export function figuresOfProgress(kind: string, progress: unknown): RunFigures {
  const p = (progress ?? {}) as Json;
  const base = kind.split(':')[0];
  const tokens = num(p.tokens) ?? num(p.usage?.totalTokens);
  if (base === 'agent') return clean({ modelCalls: num(p.counters?.llmCalls), toolRuns: num(p.counters?.toolRuns), tokens, best: num(p.bestScore) });
  if (base === 'session') return clean({ modelCalls: num(p.modelCalls) ?? num(p.counters?.modelCalls), toolRuns: num(p.toolRuns) ?? num(p.counters?.toolRuns), tokens });
  if (base === 'airetry' || base === 'code-fixer') return clean({ modelCalls: num(p.modelCalls), samples: num(p.calls), tokens, best: num(p.bestScore) });
  return clean({ modelCalls: num(p.calls), tokens });
}

/**
 * A run's figures as its search attributes record them (`GroveCalls`, `GroveTokens`,
 * `GroveBestScore`) — what `grove list` reads. `GroveCalls` is the model calls (airetry and code
 * fixer runs started before grove counted requests wrote their samples there).
 *
 * @example
 * figuresOfAttributes({ calls: 17, tokens: 6061, bestScore: 1 }); // { modelCalls: 17, tokens: 6061, best: 1 }
 */
export function figuresOfAttributes(a: { calls?: number; tokens?: number; bestScore?: number }): RunFigures {
  return clean({ modelCalls: num(a.calls), tokens: num(a.tokens), best: num(a.bestScore) });
}

/**
 * The figures in words, as every text surface prints them: `5 model calls (10 samples), 11 tool
 * runs, 298 tokens`. `best` is left to the caller, who says what it is the score of.
 *
 * @example
 * describeFigures({ modelCalls: 1, samples: 2 }); // '1 model call (2 samples)'
 */
export function describeFigures(f: RunFigures): string {
  const parts: string[] = [];
  if (f.modelCalls !== undefined) parts.push(`${plural(f.modelCalls, 'model call')}${f.samples !== undefined && f.samples !== f.modelCalls ? ` (${plural(f.samples, 'sample')})` : ''}`);
  else if (f.samples !== undefined) parts.push(plural(f.samples, 'sample'));
  if (f.toolRuns !== undefined) parts.push(plural(f.toolRuns, 'tool run'));
  if (f.tokens !== undefined) parts.push(plural(f.tokens, 'token'));
  return parts.join(', ');
}

/**
 * `1 sample`, `2 samples`: the count and the word, singular for one.
 *
 * @example
 * plural(1, 'retry', 'retries'); // '1 retry'
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function clean(f: RunFigures): RunFigures {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as RunFigures;
}
