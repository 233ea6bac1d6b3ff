import type { SampleTree } from '../tree/sample-tree';
import type { TreeNode } from '../tree/tree-node';
import type { AgentNode } from './agent-node';

/**
 * Saplings' `get_best_node`: walks the leaves breadth-first and keeps the best by raw score,
 * preferring output leaves (a finished answer beats a higher-scoring unfinished trajectory);
 * ties go to the later leaf. Unevaluated leaves count as 0. Returns the root for a tree
 * without children.
 *
 * @example
 * const best = bestNode(state.tree);
 */
export function bestNode(tree: SampleTree<AgentNode>, fromId = tree.rootId): TreeNode<AgentNode> {
  let best: TreeNode<AgentNode> | undefined;
  const queue = [tree.node(fromId)];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    if (node.children.length > 0) {
      for (const id of node.children) queue.push(tree.node(id));
      continue;
    }
    if (node.parent === null && queue.length > 1) continue;
    if (best === undefined || better(node, best)) best = node;
  }
  return best ?? tree.node(fromId);
}

function better(candidate: TreeNode<AgentNode>, best: TreeNode<AgentNode>): boolean {
  const out = candidate.data.output === true;
  const bestOut = best.data.output === true;
  if (out !== bestOut) return out;
  return (candidate.score ?? 0) >= (best.score ?? 0);
}

/**
 * The highest evaluation score anywhere in the tree (0 before any): what `GroveBestScore` reports.
 *
 * @example
 * maxScore(state.tree); // 0.8
 */
export function maxScore(tree: SampleTree<AgentNode>): number {
  let best = 0;
  for (const node of tree.preorder()) if ((node.score ?? 0) > best) best = node.score ?? 0;
  return best;
}

/**
 * The highest score any node has reached, or undefined when none has been scored yet — what a
 * running search reports as its best (a figure it does not know is left out, never shown as 0).
 *
 * @example
 * highestScore(tree); // undefined before the first evaluation, then e.g. 0.8
 */
export function highestScore(tree: SampleTree<AgentNode>): number | undefined {
  let best: number | undefined;
  for (const node of tree.preorder()) if (node.score !== undefined && (best === undefined || node.score > best)) best = node.score;
  return best;
}
