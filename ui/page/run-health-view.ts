import { formatHealth } from '../../temporal/runs/run-health';
import type { RunSummary } from '../model/view-tree';
import { h } from './dom';

/**
 * How the page marks a run in trouble: its status badge says `retrying` or `stalled` instead of
 * `running` (`waiting` when a person must act), and a line says what it is stuck on — the same words `grove list` and `grove
 * progress` use, with "next attempt in …" counted from the page's own clock.
 */
export function runBadge(run: RunSummary): HTMLElement {
  const state = run.health && run.health.state !== 'ok' ? run.health.state : run.status === 'running' && run.waiting ? 'waiting' : run.status;
  return h('span', { class: `badge status s-${state}`, 'data-testid': 'run-status', title: troubleText(run) || undefined }, state);
}

/** The one line of a running run's trouble (or of the person it waits for), now; empty when it has none. */
export function troubleText(run: RunSummary, nowMs = Date.now()): string {
  if (run.execution !== 'RUNNING') return '';
  return (run.health ? formatHealth(run.health, nowMs) : '') || (run.waiting ?? '');
}
