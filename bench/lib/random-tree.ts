import { type RandomSource, SampleTree } from '../../core';

/**
 * A random tree of `size` nodes for benchmarks: each new node hangs under a random earlier
 * node, half the time one of the last 20 (so some branches grow deep), with random airetry
 * stats, rewards and evaluation scores.
 *
 * @example
 * const tree = randomTree(10_000, seededRandom(1));
 */
export function randomTree(size: number, rng: RandomSource): SampleTree<number> {
  const tree = SampleTree.create(0);
  for (let i = 1; i < size; i++) {
    const span = rng.random() < 0.5 ? Math.min(i, 20) : i;
    const parent = i - 1 - Math.floor(rng.random() * span);
    const node = tree.expand(parent, i);
    const reward = rng.random();
    tree.backpropagate(node.id, { wins: reward < 0.4 ? 1 : 0, visits: 1, value: reward });
    if (rng.random() < 0.5) tree.setScore(node.id, rng.random());
  }
  return tree;
}

/** Height of the tree (deepest node's depth). */
export function treeHeight<D>(tree: SampleTree<D>): number {
  let height = 0;
  for (const node of tree.preorder()) height = Math.max(height, node.depth);
  return height;
}
