import { verdictLine } from '../verdicts/verdict-line';
import { describeFigures, figuresOfResult, plural, type RunFigures } from './run-figures';

type Json = Record<string, any>;

/** A completed run as every surface words it: outcome first, then the answer labelled for what it is. */
export interface RunDescription {
  /** How the run ended, what it claims and who decided it, and what it took: `completed: all checks passed (by deterministic checks) — 5 model calls (10 samples), 298 tokens, 4 retries`. */
  headline: string;
  /** What the answer is: `answer`, or `best answer found (score 0.20; not a solution)`, or `code`. */
  answerLabel: string;
  /** The answer's text, or a sentence saying why there is none. */
  answer: string;
  figures: RunFigures;
}

/**
 * Describes a completed run from its result: the headline that `grove run`, `grove result`,
 * `grove show` and the viewer lead with, and the answer labelled so that a partial one (a stopped
 * search's best trajectory, an answer that failed a check) never reads as the result.
 *
 * @example
 * describeRun('agent:mcts', result).headline;
 * // 'stopped by ana: not solved (judged by gpt-4o-mini) — score 0.20; 15 model calls, 10 tool runs, 5,277 tokens; 11 nodes'
 */
export function describeRun(kind: string, result: unknown): RunDescription {
  const r = (result ?? {}) as Json;
  const base = kind.split(':')[0];
  const figures = figuresOfResult(kind, r);
  // An agent's answer has a score of its own (its node's evaluation), said before what it took.
  const score = base === 'agent' && typeof r.score === 'number' ? `score ${r.score.toFixed(2)}` : '';
  const took = [score, describeFigures(figures), ...extras(base, r)].filter(Boolean).join('; ');
  const claim = verdictLine(r) ?? (base === 'session' ? `${plural(r.turns ?? 0, 'turn')}` : 'answered; nothing checked the answer');
  // One line whatever the run carries: a name, a reason or a check name with a line break must not print a line of its own (a forged outcome).
  const headline = `${ending(base, r)}: ${claim}${took ? ` — ${took}` : ''}`.replace(/\s+/g, ' ');
  return { headline, figures, ...labelledAnswer(base, r) };
}

function ending(base: string, r: Json): string {
  if (base === 'session') return `closed by ${r.closedBy ?? 'someone'}`;
  if (base === 'agent' && r.stop?.kind === 'stopped') return String(r.stop.message ?? 'stopped');
  if (r.stopped?.by) return `stopped by ${r.stopped.by}`;
  return 'completed';
}

function extras(base: string, r: Json): string[] {
  if (base === 'agent') return [typeof r.nodes === 'number' ? plural(r.nodes, 'node') : '', r.stop && r.stop.kind !== 'stopped' && r.stop.kind !== 'solved' ? `ended by ${r.stop.kind}: ${r.stop.message}` : ''].filter(Boolean);
  if (base === 'airetry' && typeof r.retries === 'number') return [plural(r.retries, 'retry', 'retries')];
  if (base === 'session' && typeof r.counters?.rewinds === 'number') return [plural(r.counters.rewinds, 'rewind')];
  return [];
}

function labelledAnswer(base: string, r: Json): { answerLabel: string; answer: string } {
  if (base === 'agent') {
    if (typeof r.answer !== 'string') return { answerLabel: 'answer', answer: '(none: the best trajectory did not finish)' };
    return r.isSolution ? { answerLabel: 'answer', answer: r.answer } : { answerLabel: `best answer found (score ${Number(r.score).toFixed(2)}; not a solution)`, answer: r.answer };
  }
  if (base === 'code-fixer') return { answerLabel: r.success ? 'code' : 'best code tried (not fixed)', answer: r.code?.trimEnd() || '(none: no answer held a fenced code block)' };
  if (base === 'session') return { answerLabel: 'transcript', answer: '' };
  const output = r.output;
  const text = output === undefined || output === null ? '(none)' : typeof output === 'string' ? output : JSON.stringify(output);
  if (typeof r.success === 'boolean' && !r.success) return { answerLabel: 'answer (fails the checks above)', answer: text };
  // An answer the token limit cut is never shown as if it were whole.
  if (r.finishReason === 'length') return { answerLabel: 'answer (cut: the model reached its token limit, max_tokens)', answer: `${text}…` };
  return { answerLabel: 'answer', answer: text };
}
