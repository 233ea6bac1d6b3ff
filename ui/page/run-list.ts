import { RUN_KIND_NAMES } from '../../core/runs/run-kind-names';
import { RUN_STATUSES } from '../../core/schemas/run-status';
import type { RunSummary } from '../model/view-tree';
import type { DataSource } from './data-source';
import { age, h } from './dom';
import { runBadge, troubleText } from './run-health-view';

const KINDS = [...RUN_KIND_NAMES, 'agent:mcts', 'agent:astar', 'agent:beam', 'agent:greedy', 'agent:cot'];

/**
 * The run list: grove runs from Temporal visibility, newest first, filtered by status and kind
 * (free text with suggestions, so new statuses need no change here), refreshed every few
 * seconds. Returns a function that stops it.
 */
export function runList(root: HTMLElement, source: DataSource, filter: { status?: string; kind?: string }): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = h('input', { name: 'status', list: 'grove-statuses', placeholder: 'any status', value: filter.status ?? '' });
  const kind = h('input', { name: 'kind', list: 'grove-kinds', placeholder: 'any kind', value: filter.kind ?? '' });
  const apply = (e: Event) => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (status.value.trim()) q.set('status', status.value.trim());
    if (kind.value.trim()) q.set('kind', kind.value.trim());
    location.hash = `#/${q.toString() ? `?${q}` : ''}`;
  };
  const body = h('tbody', {});
  const message = h('p', { class: 'note' });
  root.replaceChildren(
    h('header', { class: 'bar' }, h('span', { class: 'brand' }, 'grove runs')),
    h(
      'main',
      { class: 'list' },
      h(
        'form',
        { class: 'filters', onsubmit: apply },
        h('label', {}, 'status ', status),
        h('label', {}, 'kind ', kind),
        h('button', { type: 'submit' }, 'filter'),
        h('datalist', { id: 'grove-statuses' }, ...RUN_STATUSES.map((s) => h('option', { value: s }))),
        h('datalist', { id: 'grove-kinds' }, ...KINDS.map((k) => h('option', { value: k }))),
      ),
      h(
        'table',
        { class: 'runs' },
        h('thead', {}, h('tr', {}, ...['run', 'kind', 'status', 'model calls', 'best', 'started', ''].map((c) => h('th', {}, c)))),
        body,
      ),
      message,
    ),
  );

  async function refresh(): Promise<void> {
    try {
      const runs = await source.runs(filter);
      if (stopped) return;
      body.replaceChildren(...runs.flatMap(rows));
      message.textContent = runs.length === 0 ? 'No grove runs match.' : '';
    } catch (err) {
      message.textContent = `cannot list runs: ${(err as Error).message}`;
    }
    if (!stopped) timer = setTimeout(() => void refresh(), 3000);
  }
  void refresh();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** A run's row, and under a running run in trouble a row that says what it is stuck on. */
function rows(run: RunSummary): HTMLElement[] {
  const trouble = troubleText(run);
  return trouble ? [row(run), h('tr', { class: 'trouble', 'data-trouble-for': run.workflowId }, h('td', { colspan: 7 }, trouble))] : [row(run)];
}

function row(run: RunSummary): HTMLElement {
  return h(
    'tr',
    { 'data-workflow-id': run.workflowId },
    h('td', {}, h('a', { href: `#/run/${encodeURIComponent(run.workflowId)}` }, run.workflowId)),
    h('td', {}, run.kind),
    h('td', {}, runBadge(run)),
    h('td', { class: 'num' }, run.calls ?? ''),
    h('td', { class: 'num' }, run.bestScore === undefined ? '' : run.bestScore.toFixed(2)),
    h('td', { title: run.startTime }, `${age(run.startTime)} ago`),
    h('td', {}, run.temporalUrl ? h('a', { href: run.temporalUrl, target: '_blank', rel: 'noopener noreferrer' }, 'Temporal UI ↗') : ''),
  );
}
