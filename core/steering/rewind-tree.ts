import { InvalidArgumentError } from '../errors';
import type { SampleTree } from '../tree/sample-tree';

/** What a rewind of a search or retry tree asks for. */
export interface TreeRewind<D> {
  /** The node to go back to. */
  nodeId: number;
  /**
   * Data of a node that takes `nodeId`'s place (a new sibling, e.g. the same step with a
   * human's answer instead of the model's). `nodeId` is then abandoned with its subtree.
   */
  replacement?: D;
  /** Feedback the next expansion from the node (or its replacement) sees ("this is wrong because…"). */
  feedback?: string;
}

export interface TreeRewindResult<D> {
  /** The same tree, rewound. */
  tree: SampleTree<D>;
  /** Where the run goes on: the node, or its replacement. */
  resumeFrom: number;
  /** Every node the rewind abandoned (kept in the tree, flagged), in pruning order. */
  abandoned: number[];
  /** The replacement's id, when there was one. */
  replacementId?: number;
}

/**
 * A rewind in a search or retry tree: prune everything that grew from a node and go on from
 * it — optionally with a replacement for the node itself and feedback for its next expansion.
 * The same semantics serve a rewind of a running run (an update) and a new run that continues
 * from a node of another (a fork): both take the tree, a node and a replacement, and get the
 * tree back ready to re-expand from `resumeFrom`.
 *
 * - Without `replacement`: the node's children (and everything below them) are abandoned; the
 *   node stays and is where the run re-expands.
 * - With `replacement`: the node and its subtree are abandoned; the replacement becomes a new
 *   child of the node's parent, and the run goes on from it. The root (the prompt) has no
 *   parent, so it cannot be replaced.
 * - `feedback` is appended to the resume node's feedback, which its next expansion sends.
 *
 * Nothing is deleted (abandoned nodes stay in the tree and its JSON for audit, see
 * `SampleTree.abandon`), and every statistic the pruned branches contributed is taken back
 * from the ancestors, so selection after the rewind is as if they had never been explored.
 * Nodes that were kept keep their results: nothing they paid for is asked again.
 *
 * @throws InvalidArgumentError for an abandoned node or a replaced root; UnknownNodeError for an unknown id.
 * @example
 * const { resumeFrom, abandoned } = rewindTree(call.samples, { nodeId: 3, feedback: 'Answer in French.' });
 */
export function rewindTree<D>(tree: SampleTree<D>, rewind: TreeRewind<D>): TreeRewindResult<D> {
  const node = tree.node(rewind.nodeId);
  if (node.abandoned) throw new InvalidArgumentError(`node ${node.id} is on an abandoned branch: rewind a node of the live tree`);
  if (rewind.replacement !== undefined && node.parent === null) {
    throw new InvalidArgumentError(`node ${node.id} is the root (the prompt): it has no parent to hold a replacement`);
  }
  const abandoned: number[] = [];
  let resumeFrom = node.id;
  let replacementId: number | undefined;
  if (rewind.replacement !== undefined) {
    abandoned.push(...tree.abandon(node.id));
    replacementId = resumeFrom = tree.expand(node.parent!, rewind.replacement).id;
  } else {
    for (const child of [...node.children]) abandoned.push(...tree.abandon(child));
  }
  if (rewind.feedback !== undefined && rewind.feedback !== '') {
    const existing = tree.node(resumeFrom).feedback;
    tree.setFeedback(resumeFrom, existing === '' ? rewind.feedback : `${existing}\n${rewind.feedback}`);
  }
  return { tree, resumeFrom, abandoned, ...(replacementId !== undefined ? { replacementId } : {}) };
}
