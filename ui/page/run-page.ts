import { NODE_STATUSES, type RunView } from '../model/view-tree';
import type { ViewerProbe } from '../model/viewer-probe';
import { bestPathList } from './best-path-list';
import { ApiError, type DataSource } from './data-source';
import { h } from './dom';
import { factsTable, nodePanel } from './node-panel';
import { LiveAnswers } from './live-answers';
import { runBadge, troubleText } from './run-health-view';
import { attachInput } from './canvas-input';
import { TreeCanvas } from './tree-canvas';
import { BEST_COLOR, STATUS_COLORS } from './tree-colors';

declare global {
  interface Window {
    groveViewer?: ViewerProbe;
  }
}

/** How often to look again for a run that does not exist (yet). */
const MISSING_POLL_MS = 5000;

/**
 * A run's page: its tree (live while the run works: the page asks again every `pollMs`, and
 * redraws only when the view changed), the run's facts, its best path step by step, and the
 * clicked node's details. While the run works, its model calls' answers are shown growing in the
 * panel of the node each call extends, from the run's event stream. A run id the server does not
 * know is said so on the page (and looked for again every few seconds, for a run about to
 * start). Returns a function that stops it.
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
  const missing = h('div', { class: 'missing', hidden: true, 'data-testid': 'missing' });
  const trouble = h('p', { class: 'trouble run-trouble', 'data-testid': 'trouble', hidden: true });
  const showTrouble = () => {
    const text = view ? troubleText(view.run) : '';
    trouble.hidden = !text;
    trouble.textContent = text;
  };
  const runFacts = h('details', { class: 'run-facts', open: true }, h('summary', {}, 'Run'));
  const bestPath = h('div', { class: 'best-path-host' });
  const panel = h('div', { class: 'panel' }, h('p', { class: 'hint' }, 'Click a node (or its words) to read its conversation; double-click folds its subtree. Arrow keys walk the tree, + and − zoom, 0 fits.'));
  const legend = h(
    'span',
    { class: 'legend' },
    ...NODE_STATUSES.map((s) => h('span', { class: 'key' }, h('i', { style: `background:${STATUS_COLORS[s]}` }), s)),
    h('span', { class: 'key' }, h('i', { class: 'best', style: `border-color:${BEST_COLOR}` }), 'best path'),
  );
  const canvas = new TreeCanvas(host, (id) => void showNode(id), () => showStatus());
  attachInput(canvas, host);
  const toolbar = h(
    'div',
    { class: 'toolbar' },
    h('button', { onclick: () => canvas.fit(), title: 'show the whole tree (0)' }, 'fit'),
    h('button', { onclick: () => canvas.zoom(0.8), title: 'zoom out (−)', 'aria-label': 'zoom out' }, '−'),
    h('button', { onclick: () => canvas.zoom(1.25), title: 'zoom in (+)', 'aria-label': 'zoom in' }, '+'),
    h('button', { onclick: () => canvas.foldToFit(), title: 'fold what does not fit the canvas, keeping the best path (as the page opened)' }, 'fold to fit'),
    h('button', { onclick: () => canvas.bestPathOnly() }, 'best path only'),
    h('button', { onclick: () => canvas.expandAll() }, 'expand all'),
    legend,
  );
  const live = new LiveAnswers();
  let stopEvents: (() => void) | undefined;
  const treeArea = h('div', { class: 'tree-area' }, toolbar, trouble, note, live.line, host, missing, statusLine);
  root.replaceChildren(header, h('main', { class: 'run' }, treeArea, h('aside', { class: 'side' }, runFacts, bestPath, panel)));

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
    for (const li of bestPath.querySelectorAll('li')) li.classList.toggle('selected', li.dataset.node === String(id));
    const seq = ++detailSeq;
    try {
      const detail = await source.node(workflowId, id);
      if (seq !== detailSeq || stopped) return;
      panel.replaceChildren(
        nodePanel(detail, {
          live: live.box(id),
          label: canvas.byId.get(id)?.label,
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
    const folded = canvas.autoFolded ? ` · folded to fit: ${canvas.stats.nodes - canvas.stats.shown} nodes in folds (+N), expand all shows them` : '';
    statusLine.textContent = `${canvas.stats.nodes} nodes · ${canvas.stats.shown} shown · best path ${view.tree?.bestPath.length ?? 0} · ${view.live ? 'live' : 'finished'} · ${updatedAt}${folded}`;
  }

  function render(next: RunView, fetchMs: number): void {
    view = next;
    live.settle();
    // A running run's answers as they stream, from its events (a page opened on a finished run needs none).
    if (next.live && !stopEvents && source.events) {
      stopEvents = source.events(workflowId, (event) => {
        if (event.type === 'token') live.add(event);
      });
    }
    showMissing(undefined);
    const run = next.run;
    badges.replaceChildren(h('span', { class: 'badge kind' }, run.kind || '?'), runBadge(run));
    showTrouble();
    links.replaceChildren(run.temporalUrl ? h('a', { href: run.temporalUrl, target: '_blank', rel: 'noopener noreferrer' }, 'Temporal UI ↗') : '');
    runFacts.replaceChildren(h('summary', {}, 'Run'), factsTable(next.facts));
    note.hidden = !next.note;
    note.textContent = next.note ?? '';
    if (next.tree) {
      canvas.setTree(next.tree);
      bestPath.replaceChildren(bestPathList(next.tree, (id) => {
        canvas.select(id, true);
        void showNode(id);
      }));
    }
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

  /** Says on the page that there is no such run (the server's words), or takes the message away. */
  function showMissing(message: string | undefined): void {
    missing.hidden = message === undefined;
    host.hidden = message !== undefined;
    toolbar.hidden = message !== undefined;
    if (message === undefined) return;
    missing.replaceChildren(
      h('h2', {}, `No run “${workflowId}”`),
      h('p', {}, `The server says: ${message}.`),
      h('p', {}, 'Check the id (grove list shows your runs), or the namespace and address grove ui connects to. A run that is about to start appears here by itself: this page looks again every few seconds.'),
      h('p', {}, h('a', { href: '#/' }, 'See the runs')),
    );
    statusLine.textContent = `no run ${workflowId} · looking again every ${MISSING_POLL_MS / 1000} s`;
    document.title = `grove · no run ${workflowId}`;
  }

  async function poll(): Promise<void> {
    const t0 = performance.now();
    let again = source.pollMs;
    try {
      const answer = await source.run(workflowId, view?.rev);
      if (stopped) return;
      if (!('unchanged' in answer)) render(answer, performance.now() - t0);
      else showTrouble(); // "next attempt in …" counts down between changes
      if (!answer.live) return;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        showMissing(err.message);
        again = MISSING_POLL_MS;
      } else {
        statusLine.textContent = `cannot read the run: ${(err as Error).message} (trying again)`;
        again = Math.max(again, 3000);
      }
    }
    if (!stopped && again > 0) timer = setTimeout(() => void poll(), again);
  }

  void poll();
  return () => {
    stopped = true;
    stopEvents?.();
    if (timer) clearTimeout(timer);
  };
}
