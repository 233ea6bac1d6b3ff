import type { WorkflowHandle } from '@temporalio/client';
import type { RunHealth } from '../../temporal/runs/run-health';
import { plural } from '../../core/runs/run-figures';

/**
 * One line of a run's progress from its `progress` query (agent or airetry shape), e.g.
 * `step 12 · 31 nodes · 14/60 model calls · 3,210 tokens · $0.0021 · best 0.70`.
 *
 * @example
 * formatProgress({ nodes: 3, counters: { steps: 1, llmCalls: 4 }, usage: { totalTokens: 90 }, costUsd: 0, budget: { maxCalls: 20 } })
 * // 'step 1 · 3 nodes · 4/20 model calls · 90 tokens'
 */
export function formatProgress(p: Record<string, any>): string {
  const parts: string[] = [];
  const of = (used: number, max: number | undefined) => (max === undefined ? `${used}` : `${used}/${max}`);
  if (p.counters && typeof p.counters.llmCalls === 'number') {
    parts.push(`step ${p.counters.steps}`, plural(p.nodes, 'node'), `${of(p.counters.llmCalls, p.budget?.maxCalls)} model calls`);
    if (typeof p.counters.toolRuns === 'number') parts.push(plural(p.counters.toolRuns, 'tool run'));
  } else if (p.counters && typeof p.counters.modelCalls === 'number') {
    // A session: its turns and what they took; `pending` tool calls wait for a person.
    parts.push(plural(p.counters.turns, 'turn'), plural(p.counters.modelCalls, 'model call'), plural(p.counters.toolRuns, 'tool run'));
    if (p.pending > 0) parts.push(`${p.pending} waiting for approval`);
  } else if (typeof p.calls === 'number') {
    // airetry, code fixer: samples are the budget's unit; model calls are requests (one can draw n samples).
    if (typeof p.modelCalls === 'number') parts.push(plural(p.modelCalls, 'model call'));
    parts.push(`${of(p.calls, p.maxCalls)} samples`, `${of(p.retries, p.maxRetries)} retries`);
  }
  const tokens = p.usage?.totalTokens;
  if (typeof tokens === 'number') parts.push(`${of(tokens, p.budget?.maxTokens).replace(/\d+/g, (n) => Number(n).toLocaleString('en'))} tokens`);
  if (p.costUsd > 0) parts.push(`$${Number(p.costUsd).toFixed(4)}${p.budget?.maxCostUsd ? ` of $${p.budget.maxCostUsd}` : ''}`);
  if (typeof p.bestScore === 'number' && p.bestScore >= 0) parts.push(`best ${p.bestScore.toFixed(2)}`);
  return parts.join(' · ');
}

/**
 * Shows a run's progress while `grove run` waits: a line rewritten in place on a terminal, or a
 * plain line every `logEveryMs` (default 15 s) when the output is a log file. Runs without a
 * progress query (generate) show the time waited. With `health`, a run in trouble says so after
 * its counters (`… · 46 s · stalled: model call … 8 failed attempts since 13:02:11, last:
 * GroveNetworkError: …; next attempt in 12 s`). Returns a function that stops it.
 */
export function watchProgress(
  handle: WorkflowHandle,
  opts: {
    tty: boolean;
    write: (text: string) => void;
    everyMs?: number;
    logEveryMs?: number;
    columns?: number;
    health?: () => Promise<RunHealth | undefined>;
    /** True while something else writes to the same stream (an answer printed as it streams): no line is drawn then. */
    quiet?: () => boolean;
  },
): () => void {
  const started = Date.now();
  let stopped = false;
  let lastLog = 0;
  let shown = '';
  const tick = async () => {
    if (stopped) return;
    const [line, trouble] = await Promise.all([
      handle.query<Record<string, unknown>>('progress').then(formatProgress, () => 'waiting for the model'),
      opts.health ? opts.health().then((h) => h?.line ?? '', () => '') : '',
    ]);
    if (stopped) return;
    const elapsed = `${Math.round((Date.now() - started) / 1000)} s`;
    const text = `${line} · ${elapsed}${trouble ? ` · ${trouble}` : ''}`;
    if (opts.quiet?.()) {
      shown = ''; // the other writer cleared the line before it wrote
    } else if (opts.tty) {
      // One terminal row: a wrapped line could not be rewritten in place.
      const row = opts.columns && text.length >= opts.columns ? `${text.slice(0, opts.columns - 2)}…` : text;
      opts.write(`\r\x1b[2K${row}`);
      shown = row;
    } else if (Date.now() - lastLog >= (opts.logEveryMs ?? 15_000)) {
      lastLog = Date.now();
      opts.write(`progress: ${text}\n`);
    }
    timer = setTimeout(tick, opts.everyMs ?? 1000);
  };
  let timer = setTimeout(tick, opts.tty ? 300 : (opts.logEveryMs ?? 15_000));
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (opts.tty && shown) opts.write('\r\x1b[2K');
  };
}
