import { labelOrder, placeLabels, type LabelCandidate, type Obstacle, type PlacedLabel } from '../model/label-placement';
import { foldToFit } from '../model/fold-to-fit';
import { childrenOf, layoutTree, type TreeLayout } from '../model/tree-layout';
import type { ViewNode, ViewTree } from '../model/view-tree';
import { drawTree } from './draw-tree';
import { LabelLayer, LABEL_HEIGHT, labelText } from './label-layer';

/** Rows this tall or taller fit a label each: a tree opens folded until its rows are at least this tall. */
export const READABLE_ROW = 20;
const MAX_LABEL = 600; // px
const PAD = 24; // px around a fitted tree
const MAX_INDENT = 90; // px per depth
const MAX_ROW = 30; // px per row

export interface CanvasStats {
  nodes: number;
  shown: number;
  labels: number;
  layoutMs: number;
  drawMs: number;
}

/**
 * The tree: dots and edges on a canvas, labels as text above it, laid out as an outline (one
 * row per node, indented by depth; see `layoutTree`), so every node's words have the rest of
 * their row. "Fit" spreads the tree over the canvas — indent and row height scale apart, so a
 * deep chain and a bushy search both fill it — and labels are written where they fit, most
 * important first (the selected node, the best path, solutions, the most visited), so any zoom
 * shows readable words and never a pile of cut ones; zoom in and more appear. A tree too big
 * for the canvas opens folded to fit (`foldToFit`: the best path and its siblings, then what
 * the search visited most), every shown row readable; "expand all" shows every node.
 * It draws and moves; what a person does to it (drag, wheel, keys, clicks) is `attachInput`'s,
 * which the page attaches. The view follows a growing tree until you move it.
 */
export class TreeCanvas {
  readonly canvas: HTMLCanvasElement;
  readonly stats: CanvasStats = { nodes: 0, shown: 0, labels: 0, layoutMs: 0, drawMs: 0 };
  readonly labels: LabelLayer;
  tree: ViewTree = { nodes: [], bestPath: [] };
  layout: TreeLayout = layoutTree(this.tree, new Map(), new Set());
  byId = new Map<number, ViewNode>();
  best = new Set<number>();
  children = new Map<number, ViewNode[]>();
  selected: number | undefined;
  private folded = new Set<number>();
  /** Until the user folds or unfolds something, the tree is folded to fit the canvas. */
  private foldedByUser = false;
  /** Screen = t + world × a, per axis. */
  private readonly view = { ax: 1, ay: 1, tx: PAD, ty: PAD };
  /** Until the user pans or zooms, the view keeps fitting the growing tree. */
  private userMoved = false;
  private order = new Int32Array(0);
  private wx = new Float64Array(0);
  private wy = new Float64Array(0);
  private placed: PlacedLabel[] = [];
  private frame = 0;

  constructor(
    private readonly host: HTMLElement,
    readonly onSelect: (id: number) => void,
    /** After every layout (a new tree, a subtree folded or unfolded). */
    private readonly onLayout: () => void = () => {},
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'tree-canvas';
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('aria-label', 'search tree: arrow keys move between nodes, Enter folds, + and − zoom, 0 fits');
    host.append(this.canvas);
    this.labels = new LabelLayer(host);
    new ResizeObserver(() => {
      if (!this.foldedByUser && this.folded.size > 0) this.foldToFit();
      else if (this.userMoved) this.redraw();
      else this.fit();
    }).observe(host);
  }

  /** Shows a new version of the tree (same view, same folds). */
  setTree(tree: ViewTree): void {
    this.tree = tree;
    this.byId = new Map(tree.nodes.map((n) => [n.id, n]));
    this.children = childrenOf(tree);
    this.best = new Set(tree.bestPath);
    for (const id of this.folded) if (!this.byId.has(id)) this.folded.delete(id);
    if (!this.foldedByUser) this.folded = foldToFit(tree, this.children, this.capacity());
    this.relayout();
    if (!this.userMoved) this.fit();
    else this.redraw();
  }

  /** True while a large tree is folded to fit the canvas, as it opened. */
  get autoFolded(): boolean {
    return !this.foldedByUser && this.folded.size > 0;
  }

  select(id: number | undefined, reveal = false): void {
    this.selected = id;
    if (id !== undefined && reveal) this.reveal(id);
    this.redraw();
  }

  isCollapsed(id: number): boolean {
    return this.folded.has(id);
  }

  hasChildren(id: number): boolean {
    return (this.children.get(id)?.length ?? 0) > 0;
  }

  /** Folds or unfolds the subtree under `id`. */
  toggle(id: number): void {
    if (!this.hasChildren(id)) return;
    this.foldedByUser = true;
    if (this.folded.has(id)) this.folded.delete(id);
    else this.folded.add(id);
    this.relayout();
    this.redraw();
  }

  /** Folds every subtree off the best path: the best trajectory and its siblings stay. */
  bestPathOnly(): void {
    this.foldedByUser = true;
    this.foldOffBestPath();
    this.relayout();
    this.fit();
  }

  /** Folds the tree to fit the canvas again, as it opened. */
  foldToFit(): void {
    this.foldedByUser = false;
    this.folded = foldToFit(this.tree, this.children, this.capacity());
    this.relayout();
    this.fit();
  }

  expandAll(): void {
    this.foldedByUser = true;
    this.folded.clear();
    this.relayout();
    this.fit();
  }

  /** Spreads the shown tree over the canvas: depths over the width (leaving room for words), rows over the height. */
  fit(): void {
    this.userMoved = false;
    const { width, height } = this.size();
    const L = this.layout;
    if (L.ids.length === 0 || width === 0) return this.redraw();
    const room = Math.min(MAX_LABEL, Math.max(260, width * 0.5));
    this.view.ax = L.maxDepth === 0 ? 1 : clamp((width - 2 * PAD - room) / L.maxDepth, 6, MAX_INDENT);
    this.view.ay = clamp((height - 2 * PAD) / Math.max(1, L.ids.length - 1), 0.1, MAX_ROW);
    this.view.tx = PAD;
    this.view.ty = PAD;
    this.redraw();
  }

  /** Zooms by `factor` around a point of the canvas (its middle by default). */
  zoom(factor: number, at?: { x: number; y: number }): void {
    const { width, height } = this.size();
    const px = at?.x ?? width / 2, py = at?.y ?? height / 2;
    const f = clamp(factor, 0.02 / Math.min(this.view.ax, this.view.ay), 4000 / Math.max(this.view.ax, this.view.ay));
    this.view.tx = px - (px - this.view.tx) * f;
    this.view.ty = py - (py - this.view.ty) * f;
    this.view.ax *= f;
    this.view.ay *= f;
    this.userMoved = true;
    this.redraw();
  }

  pan(dx: number, dy: number): void {
    this.view.tx += dx;
    this.view.ty += dy;
    this.userMoved = true;
    this.redraw();
  }

  /** Where node `id` is drawn, in canvas pixels; undefined when it is folded away. */
  at(id: number): { x: number; y: number } | undefined {
    const i = this.layout.indexOf.get(id);
    return i === undefined ? undefined : { x: this.view.tx + this.wx[i] * this.view.ax, y: this.view.ty + this.wy[i] * this.view.ay };
  }

  /** Where node `id` is drawn, in page (client) coordinates; undefined when it is folded away. */
  screenPosition(id: number): { x: number; y: number } | undefined {
    const p = this.at(id);
    if (!p) return undefined;
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + p.x, y: rect.top + p.y };
  }

  /** The node under a canvas point: a label, else the nearest dot within reach. */
  hit(x: number, y: number): number | undefined {
    for (const p of this.placed) {
      if (x >= p.x && x <= p.x + p.width && Math.abs(y - p.y) <= LABEL_HEIGHT / 2) return this.layout.ids[p.index];
    }
    const reach = Math.max(7, this.radius() + 3);
    let best: number | undefined;
    let bestD = reach * reach;
    for (let i = 0; i < this.layout.ids.length; i++) {
      const dx = this.view.tx + this.wx[i] * this.view.ax - x, dy = this.view.ty + this.wy[i] * this.view.ay - y;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = this.layout.ids[i];
      }
    }
    return best;
  }

  /** Unfolds what hides `id` and pans it into view when it is off the canvas. */
  reveal(id: number): void {
    let changed = false;
    for (let at = this.byId.get(id)?.parent; at !== null && at !== undefined; at = this.byId.get(at)?.parent) {
      if (this.folded.delete(at)) changed = true;
    }
    if (changed) {
      this.foldedByUser = true;
      this.relayout();
    }
    const p = this.at(id);
    const { width, height } = this.size();
    if (p && (p.x < PAD || p.x > width - MAX_LABEL / 2 || p.y < PAD || p.y > height - PAD)) {
      this.view.tx += width / 3 - p.x;
      this.view.ty += height / 2 - p.y;
      this.userMoved = true;
    }
  }

  /** Draws on the next animation frame (many changes, one drawing). */
  redraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws now (also used by benchmarks to time one drawing). */
  draw(): void {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    const t0 = performance.now();
    const { width, height } = this.size();
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(width * dpr) || this.canvas.height !== Math.round(height * dpr)) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
    }
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const L = this.layout;
    const n = L.ids.length;
    const { ax, ay, tx, ty } = this.view;
    const xs = new Float64Array(n), ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = tx + this.wx[i] * ax;
      ys[i] = ty + this.wy[i] * ay;
    }
    const r = this.radius();
    const shown = drawTree(ctx, { layout: L, byId: this.byId, best: this.best, bestPath: this.tree.bestPath, selected: this.selected, xs, ys, r, width, height });
    this.drawLabels(shown, xs, ys, r, width);
    this.stats.drawMs = performance.now() - t0;
  }

  /** Dot radius: smaller when rows crowd. */
  radius(): number {
    return clamp(Math.min(this.view.ax, this.view.ay) * 0.3, 1.5, 5.5);
  }

  private drawLabels(shown: number[], xs: Float64Array, ys: Float64Array, r: number, width: number): void {
    const L = this.layout;
    const inView = new Uint8Array(L.ids.length);
    for (const i of shown) inView[i] = 1;
    const dots: Obstacle[] = shown.map((i) => ({ x0: xs[i] - r, x1: xs[i] + r, y0: ys[i] - r, y1: ys[i] + r }));
    const sel = this.selected === undefined ? undefined : L.indexOf.get(this.selected);
    const sequence = sel === undefined ? this.order : [sel, ...this.order.filter((i) => i !== sel)];
    const candidates: LabelCandidate[] = [];
    for (const i of sequence) {
      if (!inView[i]) continue;
      const node = this.byId.get(L.ids[i])!;
      const x = xs[i] + r + 4;
      const limit = Math.min(width - 4, x + MAX_LABEL);
      const best = this.best.has(node.id);
      candidates.push({ index: i, x, y: ys[i], width: this.labels.width(labelText(node, L.hidden.get(node.id)), best), limit, forced: i === sel || best });
    }
    this.placed = placeLabels(candidates, dots, { height: LABEL_HEIGHT, minWidth: 56, gap: 4, maxLabels: 700 });
    this.labels.show(this.placed, (i) => {
      const node = this.byId.get(L.ids[i])!;
      const cls = `node-label s-${node.status}${this.best.has(node.id) ? ' best' : ''}${node.id === this.selected ? ' selected' : ''}`;
      return { id: node.id, text: labelText(node, L.hidden.get(node.id)), cls };
    });
    this.stats.labels = this.placed.length;
  }

  /** Rows the canvas holds at a readable height. */
  private capacity(): number {
    return Math.max(12, Math.floor((this.size().height - 2 * PAD) / READABLE_ROW) + 1);
  }

  private foldOffBestPath(): void {
    this.folded.clear();
    for (const n of this.tree.nodes) if (!this.best.has(n.id) && this.hasChildren(n.id)) this.folded.add(n.id);
  }

  private relayout(): void {
    const t0 = performance.now();
    const L = (this.layout = layoutTree(this.tree, this.children, this.folded));
    this.wx = L.depth;
    this.wy = Float64Array.from(L.ids, (_, i) => i);
    this.order = labelOrder(L, this.byId, this.tree.bestPath);
    this.stats.nodes = this.tree.nodes.length;
    this.stats.shown = L.ids.length;
    this.stats.layoutMs = performance.now() - t0;
    this.onLayout();
  }

  private size(): { width: number; height: number } {
    return { width: this.host.clientWidth, height: this.host.clientHeight };
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
