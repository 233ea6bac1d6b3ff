import type { ViewNode, ViewTree } from './view-tree';

/**
 * Where each shown node of a tree goes: an outline, like `grove tree` prints it — one row per
 * node in depth-first order, indented by depth. Every node has a row of its own, so every label
 * has the rest of its row: the words of an inner node (a step of the best path) are as readable
 * as a leaf's, and a deep chain (a conversation) is a staircase, not a strip. Pure and iterative
 * (10,000 nodes, deep chains), shared by the page and its tests.
 */
export interface TreeLayout {
  /** Shown nodes in row order (depth first, children in order). */
  ids: number[];
  depth: Float64Array;
  /** Index (in `ids`) of each node's parent; -1 for the root. */
  parentIndex: Int32Array;
  indexOf: Map<number, number>;
  maxDepth: number;
  /** Folded nodes, with how many nodes each hides. */
  hidden: Map<number, number>;
}

/** Children of every node in drawing order: live ones first, then what rewinds abandoned. */
export function childrenOf(tree: ViewTree): Map<number, ViewNode[]> {
  const children = new Map<number, ViewNode[]>();
  for (const n of tree.nodes) {
    if (n.parent === null) continue;
    const list = children.get(n.parent);
    if (list) list.push(n);
    else children.set(n.parent, [n]);
  }
  for (const list of children.values()) list.sort((a, b) => Number(a.status === 'abandoned') - Number(b.status === 'abandoned') || a.id - b.id);
  return children;
}

/**
 * Lays out every node not inside a folded subtree: node `ids[i]` goes on row `i`, at its depth.
 *
 * @example
 * const layout = layoutTree(tree, childrenOf(tree), new Set());
 * layout.depth[layout.indexOf.get(4)!]; // 2
 */
export function layoutTree(tree: ViewTree, children: Map<number, ViewNode[]>, folded: ReadonlySet<number>): TreeLayout {
  const ids: number[] = [];
  const depths: number[] = [];
  const parents: number[] = [];
  const hidden = new Map<number, number>();
  let maxDepth = 0;
  const stack: { node: ViewNode; depth: number; parent: number }[] = tree.nodes[0] ? [{ node: tree.nodes[0], depth: 0, parent: -1 }] : [];
  while (stack.length > 0) {
    const { node, depth, parent } = stack.pop()!;
    const index = ids.length;
    ids.push(node.id);
    depths.push(depth);
    parents.push(parent);
    maxDepth = Math.max(maxDepth, depth);
    const kids = children.get(node.id) ?? [];
    if (folded.has(node.id) && kids.length > 0) {
      hidden.set(node.id, countBelow(node.id, children));
      continue;
    }
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k], depth: depth + 1, parent: index });
  }
  return {
    ids,
    depth: Float64Array.from(depths),
    parentIndex: Int32Array.from(parents),
    indexOf: new Map(ids.map((id, i) => [id, i])),
    maxDepth,
    hidden,
  };
}

function countBelow(id: number, children: Map<number, ViewNode[]>): number {
  let count = 0;
  const stack = [...(children.get(id) ?? [])];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count++;
    for (const c of children.get(node.id) ?? []) stack.push(c);
  }
  return count;
}
