import { InvalidArgumentError, UnknownNodeError } from '../errors';
import type { NodeTuple, SampleTreeJSON } from '../schemas/tree';
import { makeNode, nodesFromJSON, toTuple, type FromJsonOptions } from './tree-json';
import type { MutableTreeNode, TreeNode } from './tree-node';

export type { FromJsonOptions } from './tree-json';

export interface ExpandOptions {
  /** Default true, as in the seeds: a fresh sample counts as successful until judged. */
  success?: boolean;
  feedback?: string;
}

export interface BackpropagateOptions {
  /** Default 0. */
  wins?: number;
  /** Default 1. */
  visits?: number;
  /** Reward added to `valueSum`; default 0. */
  value?: number;
}


function checkCount(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`${name} must be a finite number >= 0, got ${String(value)}`);
  }
}

function checkScore(score: number | undefined): void {
  if (score !== undefined && !(Number.isFinite(score) && score >= 0 && score <= 1)) {
    throw new InvalidArgumentError(`score must be a number in [0, 1], got ${String(score)}`);
  }
}

/**
 * The sample tree: one tree serves airetry's samples and the search agents' trajectories.
 *
 * Why a class with methods rather than bare objects: every mutation (expansion,
 * backpropagation, evaluation) goes through one place that keeps ids sequential, depths and
 * child lists consistent, and numbers valid, so the tree can be serialised as workflow state
 * and reloaded exactly. Traversals are iterative, so 10,000-deep chains are fine.
 *
 * @example
 * const tree = SampleTree.create('root');
 * const child = tree.expand(tree.rootId, 'first answer');
 * tree.backpropagate(child.id, { wins: 1 });
 * tree.root.visits; // 1
 */
export class SampleTree<D> {
  readonly rootId: number;
  private readonly nodes: Map<number, MutableTreeNode<D>>;
  private nextIdValue: number;

  private constructor(nodes: Map<number, MutableTreeNode<D>>, rootId: number, nextId: number) {
    this.nodes = nodes;
    this.rootId = rootId;
    this.nextIdValue = nextId;
  }

  /**
   * A tree with a single root (id 0, `success` undefined).
   *
   * @example
   * const tree = SampleTree.create<ConversationDelta>({ add: [userMessage('Say hi!')] });
   */
  static create<D>(rootData: D): SampleTree<D> {
    const nodes = new Map<number, MutableTreeNode<D>>();
    nodes.set(0, makeNode(0, null, 0, rootData));
    return new SampleTree(nodes, 0, 1);
  }

  get root(): TreeNode<D> {
    return this.node(this.rootId);
  }

  /** Number of nodes. */
  get size(): number {
    return this.nodes.size;
  }

  /** The id the next expansion will get. */
  get nextId(): number {
    return this.nextIdValue;
  }

  /** @throws UnknownNodeError for an id not in the tree. */
  node(id: number): TreeNode<D> {
    return this.live(id);
  }

  findNode(id: number): TreeNode<D> | undefined {
    return this.nodes.get(id);
  }

  has(id: number): boolean {
    return this.nodes.has(id);
  }

  /**
   * Adds a child (last among its siblings) and returns it.
   *
   * @example
   * const c = tree.expand(0, data, { success: false, feedback: 'too long' });
   */
  expand(parentId: number, data: D, opts: ExpandOptions = {}): TreeNode<D> {
    const parent = this.live(parentId);
    const id = this.nextIdValue++;
    const node = makeNode(id, parentId, parent.depth + 1, data);
    node.success = opts.success ?? true;
    node.feedback = opts.feedback ?? '';
    parent.children.push(id);
    this.nodes.set(id, node);
    return node;
  }

  /**
   * Adds the outcome to the node AND every ancestor up to the root.
   *
   * @example
   * tree.backpropagate(leaf.id, { wins: 1, visits: 1 });   // airetry: passed
   * tree.backpropagate(leaf.id, { value: 0.7 });           // MCTS: reward 0.7
   */
  backpropagate(id: number, opts: BackpropagateOptions = {}): void {
    const { wins = 0, visits = 1, value = 0 } = opts;
    checkCount('wins', wins);
    checkCount('visits', visits);
    if (!Number.isFinite(value)) throw new InvalidArgumentError(`value must be a finite number, got ${String(value)}`);
    let current: MutableTreeNode<D> | undefined = this.live(id);
    while (current) {
      current.wins += wins;
      current.visits += visits;
      current.valueSum += value;
      current = current.parent === null ? undefined : this.live(current.parent);
    }
  }

  /** Sets (or clears, with undefined) the node's own evaluation in [0, 1]. */
  setScore(id: number, score: number | undefined): void {
    checkScore(score);
    this.live(id).score = score;
  }

  setFeedback(id: number, feedback: string): void {
    this.live(id).feedback = feedback;
  }

  setSuccess(id: number, success: boolean | undefined): void {
    this.live(id).success = success;
  }

  /**
   * Abandons the subtree at `id` (a rewind pruned it): the node leaves its parent's children, so
   * no traversal, selection or expansion reaches it any more, and its wins, visits and values
   * are taken back from every ancestor — the tree's statistics are as if the branch had never
   * been explored. Nothing is deleted: the nodes stay in the tree (and its JSON), flagged
   * `abandoned`, for audit. Returns the ids abandoned, the node first.
   *
   * @example
   * tree.abandon(child.id); // child and its descendants: abandoned; tree.childrenOf(parent) no longer lists it
   */
  abandon(id: number): number[] {
    const node = this.live(id);
    if (node.parent === null) throw new InvalidArgumentError(`node ${id} is the root: the root cannot be abandoned`);
    if (node.abandoned) throw new InvalidArgumentError(`node ${id} is already abandoned`);
    const parent = this.live(node.parent);
    parent.children.splice(parent.children.indexOf(id), 1);
    for (let a: MutableTreeNode<D> | undefined = parent; a; a = a.parent === null ? undefined : this.live(a.parent)) {
      a.wins -= node.wins;
      a.visits -= node.visits;
      // Sums of rewards in [0, 1]: rounding keeps float noise (1.1 - 0.9 - 0.2) out of the statistics.
      a.valueSum = Math.round((a.valueSum - node.valueSum) * 1e9) / 1e9;
    }
    const ids: number[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const current = this.live(stack.pop()!);
      current.abandoned = true;
      ids.push(current.id);
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]);
    }
    return ids;
  }

  /**
   * The roots of abandoned branches (abandoned nodes whose parent is not), in id order: where
   * to start when showing what rewinds pruned.
   *
   * @example
   * for (const id of tree.abandonedRoots()) console.log(formatTree(tree, { fromId: id }));
   */
  abandonedRoots(): number[] {
    const roots: number[] = [];
    for (const node of this.nodes.values()) {
      if (node.abandoned && node.parent !== null && !this.live(node.parent).abandoned) roots.push(node.id);
    }
    return roots;
  }

  /**
   * Every node in id order (parents before children), abandoned branches included — what a
   * drawing of everything that happened needs; traversals (`preorder`, `childrenOf`) see the
   * live tree only.
   *
   * @example
   * tree.all().filter((n) => n.abandoned).length; // nodes rewinds abandoned
   */
  all(): TreeNode<D>[] {
    return [...this.nodes.values()];
  }

  /** Replaces the node's data (e.g. the root's prompt once it is known). */
  setData(id: number, data: D): void {
    this.live(id).data = data;
  }

  parentOf(id: number): TreeNode<D> | undefined {
    const parent = this.live(id).parent;
    return parent === null ? undefined : this.live(parent);
  }

  childrenOf(id: number): TreeNode<D>[] {
    return this.live(id).children.map((c) => this.live(c));
  }

  /** The node, its parent, ..., the root. */
  pathToRoot(id: number): TreeNode<D>[] {
    const path: TreeNode<D>[] = [];
    let current: MutableTreeNode<D> | undefined = this.live(id);
    while (current) {
      path.push(current);
      current = current.parent === null ? undefined : this.live(current.parent);
    }
    return path;
  }

  /** The root, ..., the node. */
  pathFromRoot(id: number): TreeNode<D>[] {
    return this.pathToRoot(id).reverse();
  }

  /**
   * Node before its children, children in order (iterative).
   *
   * @example
   * tree.preorder().map((n) => n.id); // [0, 1, 3, 4, 2]
   */
  preorder(fromId: number = this.rootId): TreeNode<D>[] {
    const out: TreeNode<D>[] = [];
    const stack: number[] = [fromId];
    while (stack.length > 0) {
      const node = this.live(stack.pop()!);
      out.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
    return out;
  }

  /**
   * Children in order before their parent (iterative).
   *
   * @example
   * tree.postorder().map((n) => n.id); // [3, 4, 1, 2, 0]
   */
  postorder(fromId: number = this.rootId): TreeNode<D>[] {
    const out: TreeNode<D>[] = [];
    const nodeStack: MutableTreeNode<D>[] = [this.live(fromId)];
    const indexStack: number[] = [0];
    while (nodeStack.length > 0) {
      const top = nodeStack.length - 1;
      const node = nodeStack[top];
      const next = indexStack[top];
      if (next < node.children.length) {
        indexStack[top] = next + 1;
        nodeStack.push(this.live(node.children[next]));
        indexStack.push(0);
      } else {
        out.push(node);
        nodeStack.pop();
        indexStack.pop();
      }
    }
    return out;
  }

  /** Number of nodes in the subtree rooted at `id` (the node included). */
  subtreeSize(id: number): number {
    let count = 0;
    const stack: number[] = [id];
    while (stack.length > 0) {
      const node = this.live(stack.pop()!);
      count++;
      for (const c of node.children) stack.push(c);
    }
    return count;
  }

  /**
   * Mean reward `valueSum / visits`; an unvisited node falls back to its own score (or 0).
   *
   * @example
   * tree.backpropagate(id, { value: 0.5 }); tree.backpropagate(id, { value: 1 });
   * tree.mean(id); // 0.75
   */
  mean(id: number): number {
    const node = this.live(id);
    return node.visits > 0 ? node.valueSum / node.visits : (node.score ?? 0);
  }

  /**
   * Compact JSON (see `SampleTreeJSON`). Node data is included by reference, not copied:
   * serialise the result (or treat it as read-only).
   *
   * @example
   * const restored = SampleTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
   */
  toJSON(): SampleTreeJSON<D> {
    const nodes: NodeTuple<D>[] = [];
    for (const n of this.nodes.values()) nodes.push(toTuple(n));
    return { v: 1, next: this.nextIdValue, nodes };
  }

  /**
   * Loads `toJSON()` output exactly (ids, child order, stats, data), after validating it.
   *
   * @throws InvalidTreeJsonError naming what is wrong.
   * @example
   * const tree = SampleTree.fromJSON<ConversationDelta>(state.tree, { data: ConversationDeltaSchema });
   */
  static fromJSON<D>(json: unknown, opts: FromJsonOptions<D> = {}): SampleTree<D> {
    const { nodes, rootId, next } = nodesFromJSON(json, opts);
    return new SampleTree(nodes, rootId, next);
  }

  private live(id: number): MutableTreeNode<D> {
    const node = this.nodes.get(id);
    if (!node) throw new UnknownNodeError(`unknown node id ${String(id)} (tree has ${this.nodes.size} nodes)`);
    return node;
  }
}
