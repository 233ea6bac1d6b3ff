import { InvalidArgumentError } from './errors';
import type { RandomSource } from './random';
import { scoreNode } from './scoring/score-node';
import type { Scoring } from './scoring/scoring';
import type { SampleTree } from './tree/sample-tree';
import type { TreeNode } from './tree/tree-node';

export type Ordering = 'postorder' | 'preorder';
export const ORDERINGS: readonly Ordering[] = ['postorder', 'preorder'];

export interface SelectBestOptions {
  /** Default 'postorder' (favours leaves and earlier siblings on ties; 'preorder' favours the root). */
  ordering?: Ordering;
  /** Required for Thompson sampling. */
  rng?: RandomSource;
  /** Search only this subtree (default: the root). */
  fromId?: number;
}

/**
 * The seeds' `select_best`: scores EVERY node (root included, whatever its `success`) and
 * keeps the best on strict `>`, so ties go to the first node reached in `ordering`.
 * With Thompson sampling each node gets one fresh draw, in traversal order.
 *
 * @throws InvalidArgumentError naming an invalid ordering or scoring.
 * @example
 * const next = selectBest(tree, uct());                          // which sample to retry from
 * const drawn = selectBest(tree, thompsonSampling(), { rng });
 */
export function selectBest<D>(tree: SampleTree<D>, scoring: Scoring, opts: SelectBestOptions = {}): TreeNode<D> {
  const { ordering = 'postorder', rng, fromId = tree.rootId } = opts;
  if (!ORDERINGS.includes(ordering)) {
    throw new InvalidArgumentError(`invalid ordering ${JSON.stringify(ordering)}: expected 'postorder' or 'preorder'`);
  }
  const nodes = ordering === 'postorder' ? tree.postorder(fromId) : tree.preorder(fromId);
  let best = nodes[0];
  let bestScore = scoreNode(tree, best.id, scoring, rng);
  for (let i = 1; i < nodes.length; i++) {
    const score = scoreNode(tree, nodes[i].id, scoring, rng);
    if (score > bestScore) {
      best = nodes[i];
      bestScore = score;
    }
  }
  return best;
}

export interface SelectDescendingOptions<D> {
  score(node: TreeNode<D>): number;
  /** Which children may be taken (default: all), e.g. skip terminal or failed nodes. */
  eligible?(node: TreeNode<D>): boolean;
  /** Start here (default: the root). */
  fromId?: number;
}

/**
 * MCTS-style selection: from the start node, repeatedly step to the best-scoring eligible
 * child (strict `>`, so ties go to the first child) and stop at a node with no eligible child,
 * which is returned. Each child is scored once per level.
 *
 * @example
 * const leaf = selectDescending(tree, {
 *   score: (n) => valueUct(tree, n.id, 1),
 *   eligible: (n) => n.success !== false,
 * });
 */
export function selectDescending<D>(tree: SampleTree<D>, opts: SelectDescendingOptions<D>): TreeNode<D> {
  let current = tree.node(opts.fromId ?? tree.rootId);
  for (;;) {
    let best: TreeNode<D> | undefined;
    let bestScore = -Infinity;
    for (const child of tree.childrenOf(current.id)) {
      if (opts.eligible && !opts.eligible(child)) continue;
      const score = opts.score(child);
      if (best === undefined || score > bestScore) {
        best = child;
        bestScore = score;
      }
    }
    if (!best) return current;
    current = best;
  }
}
