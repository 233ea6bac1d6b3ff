import { hierarchy, tree as tidyTree } from 'd3-hierarchy';
import type { NodeStatus, ViewNode, ViewTree } from '../model/view-tree';

/** Colours of the statuses (the legend uses the same). */
export const STATUS_COLORS: Record<NodeStatus, string> = {
  root: '#4a4f57',
  expanded: '#8a8f98',
  open: '#2f7de1',
  solution: '#17924a',
  terminal: '#c08a00',
  pruned: '#c3c7ce',
  failed: '#d64545',
  abandoned: '#9b6bc4',
};

const ROW = 22; // between siblings
const COL = 200; // between depths
const RADIUS = 5;
const MAX_LABELS = 2500;

export interface CanvasStats {
  nodes: number;
  shown: number;
  layoutMs: number;
  drawMs: number;
}

/**
 * The tree on a canvas: a tidy layout (d3-hierarchy, left to right) of every node not inside a
 * collapsed subtree, drawn in batches (one path per colour), labels only when zoomed in and only
 * on screen — so 10,000 nodes lay out and draw in milliseconds and pan smoothly. Drag pans,
 * the wheel zooms, a click selects, a double click collapses or expands a subtree. The view
 * stays where it is when the tree grows.
 */
export class TreeCanvas {
  readonly canvas: HTMLCanvasElement;
  readonly stats: CanvasStats = { nodes: 0, shown: 0, layoutMs: 0, drawMs: 0 };
  private tree: ViewTree = { nodes: [], bestPath: [] };
  private readonly collapsed = new Set<number>();
  private children = new Map<number, ViewNode[]>();
  private byId = new Map<number, ViewNode>();
  private best = new Set<number>();
  // Laid-out visible nodes, as parallel arrays.
  private ids: number[] = [];
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  private parentIndex = new Int32Array(0);
  private indexOf = new Map<number, number>();
  private hidden = new Map<number, number>();
  private k = 1;
  private tx = 40;
  private ty = 0;
  /** Until the user pans or zooms, the view keeps fitting the growing tree. */
  private userMoved = false;
  private selected: number | undefined;
  private frame = 0;

  constructor(
    private readonly host: HTMLElement,
    private readonly onSelect: (id: number) => void,
    /** After every layout (a new tree, a subtree collapsed or expanded). */
    private readonly onLayout: () => void = () => {},
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'tree-canvas';
    host.append(this.canvas);
    new ResizeObserver(() => this.redraw()).observe(host);
    this.listen();
  }

  /** Shows a new version of the tree (same view, same collapsed subtrees). */
  setTree(tree: ViewTree): void {
    this.tree = tree;
    this.byId = new Map(tree.nodes.map((n) => [n.id, n]));
    this.children = new Map();
    for (const n of tree.nodes) {
      if (n.parent === null) continue;
      const list = this.children.get(n.parent);
      if (list) list.push(n);
      else this.children.set(n.parent, [n]);
    }
    this.best = new Set(tree.bestPath);
    for (const id of this.collapsed) if (!this.byId.has(id)) this.collapsed.delete(id);
    this.layout();
    if (!this.userMoved) this.fit();
    else this.redraw();
  }

  select(id: number | undefined): void {
    this.selected = id;
    this.redraw();
  }

  isCollapsed(id: number): boolean {
    return this.collapsed.has(id);
  }

  hasChildren(id: number): boolean {
    return (this.children.get(id)?.length ?? 0) > 0;
  }

  /** Collapses or expands the subtree under `id`. */
  toggle(id: number): void {
    if (!this.hasChildren(id)) return;
    if (this.collapsed.has(id)) this.collapsed.delete(id);
    else this.collapsed.add(id);
    this.layout();
    this.redraw();
  }

  /** Collapses every subtree off the best path: the best trajectory and its siblings stay. */
  bestPathOnly(): void {
    this.collapsed.clear();
    for (const n of this.tree.nodes) if (!this.best.has(n.id) && this.hasChildren(n.id)) this.collapsed.add(n.id);
    this.layout();
    this.fit();
  }

  expandAll(): void {
    this.collapsed.clear();
    this.layout();
    this.fit();
  }

  /** Zooms to show the whole (visible) tree, never larger than 1:1. */
  fit(): void {
    this.userMoved = false;
    const { width, height } = this.size();
    if (this.ids.length === 0 || width === 0) return this.redraw();
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < this.ids.length; i++) {
      minX = Math.min(minX, this.xs[i]);
      maxX = Math.max(maxX, this.xs[i]);
      minY = Math.min(minY, this.ys[i]);
      maxY = Math.max(maxY, this.ys[i]);
    }
    const pad = 40;
    const labelRoom = 180;
    this.k = Math.min(1, (width - 2 * pad) / Math.max(1, maxX - minX + labelRoom), (height - 2 * pad) / Math.max(1, maxY - minY));
    this.tx = pad - minX * this.k;
    this.ty = (height - (maxY - minY) * this.k) / 2 - minY * this.k;
    this.redraw();
  }

  /** Where node `id` is drawn, in page (client) coordinates; undefined when it is hidden. */
  screenPosition(id: number): { x: number; y: number } | undefined {
    const i = this.indexOf.get(id);
    if (i === undefined) return undefined;
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + this.xs[i] * this.k + this.tx, y: rect.top + this.ys[i] * this.k + this.ty };
  }

  private layout(): void {
    const t0 = performance.now();
    const root = this.tree.nodes[0];
    this.ids = [];
    this.indexOf = new Map();
    this.hidden = new Map();
    if (!root) {
      this.xs = new Float64Array(0);
      this.ys = new Float64Array(0);
      return;
    }
    const h = hierarchy<ViewNode>(root, (n) => (this.collapsed.has(n.id) ? null : this.children.get(n.id)));
    const laid = tidyTree<ViewNode>().nodeSize([ROW, COL]).separation((a, b) => (a.parent === b.parent ? 1 : 1.3))(h);
    const all = laid.descendants();
    this.xs = new Float64Array(all.length);
    this.ys = new Float64Array(all.length);
    this.parentIndex = new Int32Array(all.length);
    all.forEach((d, i) => {
      this.ids.push(d.data.id);
      this.indexOf.set(d.data.id, i);
      this.xs[i] = d.y; // depth runs left to right
      this.ys[i] = d.x;
    });
    all.forEach((d, i) => (this.parentIndex[i] = d.parent ? this.indexOf.get(d.parent.data.id)! : -1));
    for (const id of this.collapsed) this.hidden.set(id, this.descendants(id));
    this.stats.nodes = this.tree.nodes.length;
    this.stats.shown = all.length;
    this.stats.layoutMs = performance.now() - t0;
    this.onLayout();
  }

  private descendants(id: number): number {
    let count = 0;
    const stack = [...(this.children.get(id) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      count++;
      for (const c of this.children.get(n.id) ?? []) stack.push(c);
    }
    return count;
  }

  private size(): { width: number; height: number } {
    return { width: this.host.clientWidth, height: this.host.clientHeight };
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
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.setTransform(dpr * this.k, 0, 0, dpr * this.k, dpr * this.tx, dpr * this.ty);
    const k = this.k;
    const margin = 250 / k;
    const x0 = -this.tx / k - margin, x1 = (width - this.tx) / k + margin;
    const y0 = -this.ty / k - margin, y1 = (height - this.ty) / k + margin;
    const n = this.ids.length;
    const inView = (i: number) => this.xs[i] >= x0 && this.xs[i] <= x1 && this.ys[i] >= y0 && this.ys[i] <= y1;

    // Edges: ordinary ones in one path, the best path's on top.
    const edges = new Path2D();
    const bestEdges = new Path2D();
    for (let i = 0; i < n; i++) {
      const p = this.parentIndex[i];
      if (p < 0 || !(inView(i) || inView(p))) continue;
      const path = this.best.has(this.ids[i]) ? bestEdges : edges;
      const mx = (this.xs[p] + this.xs[i]) / 2;
      path.moveTo(this.xs[p], this.ys[p]);
      path.bezierCurveTo(mx, this.ys[p], mx, this.ys[i], this.xs[i], this.ys[i]);
    }
    ctx.lineWidth = Math.max(1, 1 / k) * 1.2;
    ctx.strokeStyle = '#c9ced6';
    ctx.stroke(edges);
    ctx.lineWidth = Math.max(2.5, 2.5 / k);
    ctx.strokeStyle = '#e8a317';
    ctx.stroke(bestEdges);

    // Nodes: one path per status colour.
    const radius = Math.max(RADIUS, 2.2 / k);
    const byColor = new Map<string, Path2D>();
    const visible: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!inView(i)) continue;
      visible.push(i);
      const color = STATUS_COLORS[this.byId.get(this.ids[i])!.status];
      let path = byColor.get(color);
      if (!path) byColor.set(color, (path = new Path2D()));
      path.moveTo(this.xs[i] + radius, this.ys[i]);
      path.arc(this.xs[i], this.ys[i], radius, 0, 2 * Math.PI);
    }
    for (const [color, path] of byColor) {
      ctx.fillStyle = color;
      ctx.fill(path);
    }
    const ring = (i: number, color: string, width: number, extra: number) => {
      ctx.beginPath();
      ctx.arc(this.xs[i], this.ys[i], radius + extra / k, 0, 2 * Math.PI);
      ctx.lineWidth = width / k;
      ctx.strokeStyle = color;
      ctx.stroke();
    };
    for (const id of this.tree.bestPath) {
      const i = this.indexOf.get(id);
      if (i !== undefined && inView(i)) ring(i, '#e8a317', 2, 2);
    }
    const sel = this.selected === undefined ? undefined : this.indexOf.get(this.selected);
    if (sel !== undefined) ring(sel, '#111', 2.5, 4.5);

    // Labels (in screen pixels, cut to the room between depths) and collapsed subtrees' sizes,
    // when rows are far enough apart to be read.
    if (ROW * k >= 9) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = '11px system-ui, sans-serif';
      ctx.textBaseline = 'middle';
      const room = Math.max(3, Math.floor((COL * k - 2 * radius * k - 10) / 6));
      let drawn = 0;
      for (const i of visible) {
        if (drawn++ >= MAX_LABELS) break;
        const node = this.byId.get(this.ids[i])!;
        const sx = this.xs[i] * k + this.tx, sy = this.ys[i] * k + this.ty;
        const number = node.score ?? node.value;
        const text = `n${node.id}${number === undefined ? '' : ` ${number.toFixed(2)}`} ${node.label}`;
        ctx.fillStyle = this.best.has(node.id) ? '#7a5200' : '#2b2f36';
        ctx.fillText(text.length > room ? `${text.slice(0, room - 1)}…` : text, sx + radius * k + 4, sy);
        const hiddenCount = this.hidden.get(node.id);
        if (hiddenCount) {
          ctx.fillStyle = '#5b6270';
          ctx.fillText(`+${hiddenCount}`, sx - radius * k - 6 - ctx.measureText(`+${hiddenCount}`).width, sy - 9);
        }
      }
    } else {
      for (const [id] of this.hidden) {
        const i = this.indexOf.get(id);
        if (i !== undefined && inView(i)) ring(i, '#5b6270', 1.5, 3);
      }
    }
    this.stats.drawMs = performance.now() - t0;
  }

  private hit(clientX: number, clientY: number): number | undefined {
    const rect = this.canvas.getBoundingClientRect();
    const x = (clientX - rect.left - this.tx) / this.k;
    const y = (clientY - rect.top - this.ty) / this.k;
    const reach = Math.max(RADIUS + 3, 8 / this.k);
    let best: number | undefined;
    let bestD = reach * reach;
    for (let i = 0; i < this.ids.length; i++) {
      const dx = this.xs[i] - x, dy = this.ys[i] - y;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = this.ids[i];
      }
    }
    return best;
  }

  private listen(): void {
    const c = this.canvas;
    let drag: { x: number; y: number; tx: number; ty: number; moved: boolean } | undefined;
    c.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, tx: this.tx, ty: this.ty, moved: false };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointermove', (e) => {
      if (!drag) {
        c.style.cursor = this.hit(e.clientX, e.clientY) === undefined ? 'grab' : 'pointer';
        return;
      }
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && dx * dx + dy * dy < 16) return;
      drag.moved = true;
      this.userMoved = true;
      this.tx = drag.tx + dx;
      this.ty = drag.ty + dy;
      this.redraw();
    });
    c.addEventListener('pointerup', (e) => {
      const wasClick = drag && !drag.moved;
      drag = undefined;
      if (!wasClick) return;
      const id = this.hit(e.clientX, e.clientY);
      if (id !== undefined) this.onSelect(id);
    });
    c.addEventListener('dblclick', (e) => {
      const id = this.hit(e.clientX, e.clientY);
      if (id !== undefined) this.toggle(id);
    });
    c.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const rect = c.getBoundingClientRect();
        const px = e.clientX - rect.left, py = e.clientY - rect.top;
        const k = Math.min(4, Math.max(0.002, this.k * Math.exp(-e.deltaY * 0.0015)));
        this.tx = px - ((px - this.tx) * k) / this.k;
        this.ty = py - ((py - this.ty) * k) / this.k;
        this.k = k;
        this.userMoved = true;
        this.redraw();
      },
      { passive: false },
    );
  }
}
