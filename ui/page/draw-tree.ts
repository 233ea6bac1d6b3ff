import type { TreeLayout } from '../model/tree-layout';
import type { ViewNode } from '../model/view-tree';
import { BEST_COLOR, STATUS_COLORS } from './tree-colors';

/** What one drawing of the tree needs: the shown rows and where each one is on the canvas. */
export interface TreeScene {
  layout: TreeLayout;
  byId: Map<number, ViewNode>;
  best: Set<number>;
  bestPath: number[];
  selected: number | undefined;
  /** Canvas x and y of each shown row (by layout index). */
  xs: Float64Array;
  ys: Float64Array;
  /** Dot radius. */
  r: number;
  width: number;
  height: number;
}

/**
 * Draws the tree's edges and dots on a cleared canvas, skipping what lies off it: edges as an
 * outline's elbows (abandoned branches dashed, the best path on top), one path per status colour
 * for the dots, then rings for the best path, folded subtrees and the selection. Returns the
 * layout indices of the dots it drew, for the labels to be placed beside.
 */
export function drawTree(ctx: CanvasRenderingContext2D, scene: TreeScene): number[] {
  const { layout: L, xs, ys, r, width, height } = scene;
  const n = L.ids.length;
  const m = 40;
  const inView = (i: number) => xs[i] >= -m && xs[i] <= width + m && ys[i] >= -m && ys[i] <= height + m;

  // Edges: ordinary ones, then abandoned branches (dashed), then the best path on top.
  const edges = new Path2D(), abandoned = new Path2D(), best = new Path2D();
  for (let i = 1; i < n; i++) {
    const p = L.parentIndex[i];
    if (Math.max(xs[p], xs[i]) < -m || Math.min(xs[p], xs[i]) > width + m || Math.max(ys[p], ys[i]) < -m || Math.min(ys[p], ys[i]) > height + m) continue;
    const node = scene.byId.get(L.ids[i])!;
    const path = scene.best.has(node.id) ? best : node.status === 'abandoned' ? abandoned : edges;
    // An elbow, as an outline draws it: down from the parent, then across to the child.
    const c = Math.min(6, (ys[i] - ys[p]) / 2, (xs[i] - xs[p]) / 2);
    path.moveTo(xs[p], ys[p]);
    path.lineTo(xs[p], ys[i] - c);
    path.quadraticCurveTo(xs[p], ys[i], xs[p] + c, ys[i]);
    path.lineTo(xs[i] - r, ys[i]);
  }
  ctx.lineWidth = 1.2;
  ctx.strokeStyle = '#c5cad3';
  ctx.stroke(edges);
  ctx.setLineDash([4, 3]);
  ctx.strokeStyle = STATUS_COLORS.abandoned;
  ctx.stroke(abandoned);
  ctx.setLineDash([]);
  ctx.lineWidth = 3;
  ctx.strokeStyle = BEST_COLOR;
  ctx.stroke(best);

  // Nodes: one path per status colour; rings for the best path, folds and the selection.
  const byColor = new Map<string, Path2D>();
  const shown: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!inView(i)) continue;
    shown.push(i);
    const color = STATUS_COLORS[scene.byId.get(L.ids[i])!.status];
    let path = byColor.get(color);
    if (!path) byColor.set(color, (path = new Path2D()));
    path.moveTo(xs[i] + r, ys[i]);
    path.arc(xs[i], ys[i], r, 0, 2 * Math.PI);
  }
  for (const [color, path] of byColor) {
    ctx.fillStyle = color;
    ctx.fill(path);
  }
  const ring = (i: number, color: string, lineWidth: number, extra: number) => {
    ctx.beginPath();
    ctx.arc(xs[i], ys[i], r + extra, 0, 2 * Math.PI);
    ctx.lineWidth = lineWidth;
    ctx.strokeStyle = color;
    ctx.stroke();
  };
  for (const id of scene.bestPath) {
    const i = L.indexOf.get(id);
    if (i !== undefined && inView(i)) ring(i, BEST_COLOR, 2, 2);
  }
  for (const id of L.hidden.keys()) {
    const i = L.indexOf.get(id)!;
    if (inView(i)) ring(i, '#5b6270', 1.5, 4);
  }
  const sel = scene.selected === undefined ? undefined : L.indexOf.get(scene.selected);
  if (sel !== undefined) ring(sel, '#111', 2.5, 5);
  return shown;
}
