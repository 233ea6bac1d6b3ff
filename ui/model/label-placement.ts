import type { TreeLayout } from './tree-layout';
import type { ViewNode } from './view-tree';

/**
 * Which node labels to write, and how wide, so that none covers another label or a node: the
 * most important first (the selected node, the best path, then by the caller's order), each
 * after its node and cut (with an ellipsis) where something else begins. A label with too little
 * room is left out — that node's text is then a hover or a zoom away. Pure: screen pixels in,
 * placements out.
 */

export interface LabelCandidate {
  /** The caller's handle for the node. */
  index: number;
  /** Where the label starts (just after its node) and its middle line, in screen pixels. */
  x: number;
  y: number;
  /** The text's full width. */
  width: number;
  /** The label never runs past this x (the next depth's nodes, the edge of the canvas). */
  limit: number;
  /** Written over nodes' dots (the selected node, the best path); other labels still stop it. */
  forced?: boolean;
}

export interface PlacedLabel {
  index: number;
  x: number;
  y: number;
  width: number;
}

export interface Obstacle {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface PlacementOptions {
  /** A label's height. */
  height: number;
  /** Narrower than this (or than the whole text, if shorter) is not worth writing. */
  minWidth: number;
  /** Space kept before whatever comes next on the line. */
  gap: number;
  /** Stop after this many labels (default: no limit). */
  maxLabels?: number;
}

/**
 * Places labels in the order given, around fixed obstacles (the nodes' dots, which forced labels
 * may cover) and the labels placed before them.
 *
 * @example
 * placeLabels([{ index: 0, x: 20, y: 50, width: 120, limit: 400 }], [], { height: 16, minWidth: 40, gap: 6 });
 * // [{ index: 0, x: 20, y: 50, width: 120 }]
 */
export function placeLabels(candidates: Iterable<LabelCandidate>, dots: Iterable<Obstacle>, opts: PlacementOptions): PlacedLabel[] {
  const band = Math.max(4, opts.height);
  const bands = new Map<number, (Obstacle & { label: boolean })[]>();
  const add = (o: Obstacle, label: boolean) => {
    for (let b = Math.floor(o.y0 / band); b <= Math.floor(o.y1 / band); b++) {
      const list = bands.get(b);
      if (list) list.push({ ...o, label });
      else bands.set(b, [{ ...o, label }]);
    }
  };
  for (const o of dots) add(o, false);
  const placed: PlacedLabel[] = [];
  const most = opts.maxLabels ?? Infinity;
  for (const c of candidates) {
    if (placed.length >= most) break;
    const y0 = c.y - opts.height / 2;
    const y1 = c.y + opts.height / 2;
    let end = Math.min(c.x + c.width, c.limit);
    for (let b = Math.floor(y0 / band); b <= Math.floor(y1 / band) && end > c.x; b++) {
      for (const o of bands.get(b) ?? []) {
        if (o.y0 >= y1 || o.y1 <= y0 || o.x1 <= c.x || (c.forced && !o.label)) continue;
        end = o.x0 <= c.x ? c.x : Math.min(end, o.x0 - opts.gap);
      }
    }
    const room = end - c.x;
    const wanted = Math.min(opts.minWidth, c.width);
    if (room < wanted) continue;
    placed.push({ index: c.index, x: c.x, y: c.y, width: room });
    add({ x0: c.x, x1: end, y0, y1 }, true);
  }
  return placed;
}

/**
 * The order labels are offered in (indexes of `L.ids`): the best path from the root down, then
 * solutions, the most visited, the best scored, the shallowest.
 *
 * @example
 * placeLabels(labelOrder(layout, byId, tree.bestPath).map(candidateOf), dots, opts);
 */
export function labelOrder(L: TreeLayout, byId: Map<number, ViewNode>, bestPath: number[]): Int32Array {
  const onPath = new Set(bestPath);
  const rest: number[] = [];
  for (let i = 0; i < L.ids.length; i++) if (!onPath.has(L.ids[i])) rest.push(i);
  const key = (i: number) => byId.get(L.ids[i])!;
  rest.sort((a, b) => {
    const na = key(a), nb = key(b);
    return (
      Number(nb.status === 'solution') - Number(na.status === 'solution') ||
      nb.visits - na.visits ||
      (nb.score ?? -1) - (na.score ?? -1) ||
      L.depth[a] - L.depth[b] ||
      na.id - nb.id
    );
  });
  const path = bestPath.map((id) => L.indexOf.get(id)).filter((i): i is number => i !== undefined);
  return Int32Array.from([...path, ...rest]);
}
