import { formatHealth } from '../../temporal/runs/run-health';
import type { RunSummary } from '../model/view-tree';
import { h } from './dom';

/**
 * How the page marks a run in trouble: its status badge says `retrying` or `stalled` instead of
 * `running`, and a line says what it is stuck on — the same words `grove list` and `grove
 * progress` use, with "next attempt in …" counted from the page's own clock.
 */
export function runBadge(run: RunSummary): HTMLElement {
  const state = run.health && run.health.state !== 'ok' ? run.health.state : run.status;
  return h('span', { class: `badge status s-${state}`, 'data-testid': 'run-status', title: troubleText(run) || undefined }, state);
}

/** The one line of a running run's trouble, now; empty when it has none. */
export function troubleText(run: RunSummary, nowMs = Date.now()): string {
  return run.health && run.execution === 'RUNNING' ? formatHealth(run.health, nowMs) : '';
}
