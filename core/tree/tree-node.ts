/**
 * One sample in a search tree. The same node type serves airetry (binary outcomes in
 * `wins`/`visits`) and the search agents (real-valued rewards in `valueSum`, an evaluator's
 * `score`).
 *
 * Nodes handed out by {@link SampleTree} are the live objects, typed read-only: change them
 * only through the tree's methods, and never mutate `data` (it is shared with serialised state
 * and with conversations built from it).
 */
export interface TreeNode<D> {
  /** Sequential per tree (root 0), never reused. */
  readonly id: number;
  readonly parent: number | null;
  /** Child ids in creation order. */
  readonly children: readonly number[];
  /** Root depth 0. */
  readonly depth: number;
  /** Binary outcomes (airetry): passes among `visits` evaluations, backpropagated. */
  readonly wins: number;
  readonly visits: number;
  /** Sum of real-valued rewards in [0, 1] (LATS/MCTS), backpropagated. */
  readonly valueSum: number;
  /** The node's own evaluation in [0, 1], when evaluated. */
  readonly score?: number;
  readonly data: D;
  readonly feedback: string;
  /** undefined: not judged yet; true/false: the outcome. */
  readonly success?: boolean;
  /**
   * Pruned by a rewind (`SampleTree.abandon`): kept for audit, but no longer among its parent's
   * children, so nothing selects, expands or counts it.
   */
  readonly abandoned: boolean;
}

/** The tree's own, writable view of a node. */
export interface MutableTreeNode<D> {
  id: number;
  parent: number | null;
  children: number[];
  depth: number;
  wins: number;
  visits: number;
  valueSum: number;
  score: number | undefined;
  data: D;
  feedback: string;
  success: boolean | undefined;
  abandoned: boolean;
}
