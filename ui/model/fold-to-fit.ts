import type { ViewNode, ViewTree } from './view-tree';

/**
 * Which subtrees to fold so that a tree shows as many rows as fit, each readable: the best path
 * and its siblings always, then — while rows are left — the subtrees the search cared most about
 * (most visited, best scored, earliest first). Folded nodes say how many they hide; nothing
 * is dropped. A tree that already fits is not folded at all.
 *
 * @example
 * const folded = foldToFit(tree, childrenOf(tree), 36); // ids of the nodes to show folded
 */
export function foldToFit(tree: ViewTree, children: Map<number, ViewNode[]>, rows: number): Set<number> {
  const folded = new Set<number>();
  if (tree.nodes.length <= rows) return folded;
  for (const n of tree.nodes) if (children.get(n.id)?.length) folded.add(n.id);
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const best = new Set(tree.bestPath);
  let shown = tree.nodes.length ? 1 : 0;
  const heap = new Heap<ViewNode>(before);
  const open = (node: ViewNode) => {
    folded.delete(node.id);
    for (const kid of children.get(node.id) ?? []) {
      shown++;
      if (children.get(kid.id)?.length && !best.has(kid.id)) heap.push(kid);
    }
  };
  for (const id of tree.bestPath) {
    const node = byId.get(id);
    if (node && children.get(id)?.length) open(node);
  }
  for (let node = heap.pop(); node; node = heap.pop()) {
    if (shown + children.get(node.id)!.length <= rows) open(node);
  }
  return folded;
}

/** Whether `a` should be unfolded before `b`: more visits, a better score or value, made earlier (a smaller id). */
function before(a: ViewNode, b: ViewNode): boolean {
  if (a.visits !== b.visits) return a.visits > b.visits;
  const sa = a.score ?? a.value ?? -1, sb = b.score ?? b.value ?? -1;
  if (sa !== sb) return sa > sb;
  return a.id < b.id;
}

/** A binary heap: the first item by `before`. */
class Heap<T> {
  private readonly items: T[] = [];
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  push(item: T): void {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!this.before(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.before(a[l], a[m])) m = l;
        if (r < a.length && this.before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
