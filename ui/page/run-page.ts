import { NODE_STATUSES, type RunView } from '../model/view-tree';
import type { ViewerProbe } from '../model/viewer-probe';
import type { DataSource } from './data-source';
import { h } from './dom';
import { factsTable, nodePanel } from './node-panel';
import { STATUS_COLORS, TreeCanvas } from './tree-canvas';

declare global {
  interface Window {
    groveViewer?: ViewerProbe;
  }
}

/**
 * A run's page: its tree (live while the run works: the page asks again every `pollMs`, and
 * redraws only when the view changed), the run's facts, and the clicked node's details.
 * Returns a function that stops it.
 */
export function runPage(root: HTMLElement, source: DataSource, workflowId: string): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let view: RunView | undefined;
  let selected: number | undefined;
  let detailSeq = 0;

  const title = h('span', { class: 'title' }, workflowId);
  const badges = h('span', { class: 'badges' });
  const links = h('span', { class: 'links' });
  const header = h('header', { class: 'bar' }, source.exported ? h('span', { class: 'brand' }, 'grove') : h('a', { href: '#/', class: 'brand' }, 'grove runs'), ' / ', title, badges, links);
  const host = h('div', { class: 'canvas-host' });
  const statusLine = h('div', { class: 'status-line', 'data-testid': 'status' }, 'loading…');
  const note = h('p', { class: 'note run-note', hidden: true });
  const runFacts = h('details', { class: 'run-facts', open: true }, h('summary', {}, 'Run'));
  const panel = h('div', { class: 'panel' }, h('p', { class: 'hint' }, 'Click a node to see its conversation; double-click to collapse its subtree.'));
  const legend = h('span', { class: 'legend' }, ...NODE_STATUSES.map((s) => h('span', { class: 'key' }, h('i', { style: `background:${STATUS_COLORS[s]}` }), s)), h('span', { class: 'key' }, h('i', { class: 'best' }), 'best path'));
  const canvas = new TreeCanvas(host, (id) => void showNode(id), () => showStatus());
  const toolbar = h(
    'div',
    { class: 'toolbar' },
    h('button', { onclick: () => canvas.fit() }, 'fit'),
    h('button', { onclick: () => canvas.bestPathOnly() }, 'best path only'),
    h('button', { onclick: () => canvas.expandAll() }, 'expand all'),
    legend,
  );
  root.replaceChildren(header, h('main', { class: 'run' }, h('div', { class: 'tree-area' }, toolbar, note, host, statusLine), h('aside', { class: 'side' }, runFacts, panel)));

  const probe: ViewerProbe = {
    workflowId,
    live: false,
    nodes: 0,
    get shown() {
      return canvas.stats.shown;
    },
    bestPath: [],
    updates: 0,
    fetchMs: 0,
    layoutMs: 0,
    drawMs: 0,
    drawnAt: 0,
    screenPosition: (id) => canvas.screenPosition(id),
  };
  window.groveViewer = probe;

  async function showNode(id: number): Promise<void> {
    selected = id;
    probe.selected = id;
    canvas.select(id);
    const seq = ++detailSeq;
    try {
      const detail = await source.node(workflowId, id);
      if (seq !== detailSeq || stopped) return;
      panel.replaceChildren(
        nodePanel(detail, {
          collapsible: canvas.hasChildren(id),
          collapsed: canvas.isCollapsed(id),
          onToggle: () => {
            canvas.toggle(id);
            void showNode(id);
          },
        }),
      );
    } catch (err) {
      if (seq === detailSeq) panel.replaceChildren(h('p', { class: 'error' }, `n${id}: ${(err as Error).message}`));
    }
  }

  let updatedAt = '';
  function showStatus(): void {
    if (!view) return;
    statusLine.textContent = `${canvas.stats.nodes} nodes · ${canvas.stats.shown} shown · best path ${view.tree?.bestPath.length ?? 0} · ${view.live ? 'live' : 'finished'} · ${updatedAt}`;
  }

  function render(next: RunView, fetchMs: number): void {
    view = next;
    const run = next.run;
    badges.replaceChildren(h('span', { class: 'badge kind' }, run.kind || '?'), h('span', { class: `badge status s-${run.status}`, 'data-testid': 'run-status' }, run.status));
    links.replaceChildren(run.temporalUrl ? h('a', { href: run.temporalUrl, target: '_blank', rel: 'noopener noreferrer' }, 'Temporal UI ↗') : '');
    runFacts.replaceChildren(h('summary', {}, 'Run'), factsTable(next.facts));
    note.hidden = !next.note;
    note.textContent = next.note ?? '';
    if (next.tree) canvas.setTree(next.tree);
    canvas.draw();
    Object.assign(probe, {
      rev: next.rev,
      live: next.live,
      nodes: canvas.stats.nodes,
      bestPath: next.tree?.bestPath ?? [],
      updates: probe.updates + 1,
      fetchMs,
      layoutMs: canvas.stats.layoutMs,
      drawMs: canvas.stats.drawMs,
      drawnAt: performance.now(),
    });
    updatedAt = source.exported ? `exported ${new Date(source.exported.exportedAt).toLocaleString()}` : `updated ${new Date().toLocaleTimeString()}`;
    showStatus();
    if (selected !== undefined) void showNode(selected);
  }

  async function poll(): Promise<void> {
    const t0 = performance.now();
    let again = source.pollMs;
    try {
      const answer = await source.run(workflowId, view?.rev);
      if (stopped) return;
      if (!('unchanged' in answer)) render(answer, performance.now() - t0);
      if (!answer.live) return;
    } catch (err) {
      statusLine.textContent = `cannot read the run: ${(err as Error).message} (trying again)`;
      again = Math.max(again, 3000);
    }
    if (!stopped && again > 0) timer = setTimeout(() => void poll(), again);
  }

  void poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
