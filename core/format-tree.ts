import { type ConversationDelta, conversationLength, deltaLength } from './conversation/delta';
import type { RandomSource } from './random';
import { scoreNode } from './scoring/score-node';
import { type Scoring, uct } from './scoring/scoring';
import type { SampleTree } from './tree/sample-tree';
import type { TreeNode } from './tree/tree-node';

/**
 * Rounds like Julia's `round(x, digits=2)`, which computes `round(x * 100) / 100` in floating
 * point with ties to even (so `0.125 -> 0.12`, where `Math.round` would give 0.13).
 *
 * @example
 * roundDigits(1.41421356); // 1.41
 */
export function roundDigits(x: number, digits = 2): number {
  const scale = 10 ** digits;
  const y = x * scale;
  const floor = Math.floor(y);
  const diff = y - floor;
  let r: number;
  if (diff > 0.5) r = floor + 1;
  else if (diff < 0.5) r = floor;
  else r = floor % 2 === 0 ? floor : floor + 1;
  return r / scale;
}

export interface FormatNodeOptions {
  /** Printed rounded to 2 decimals; omitted when undefined. */
  score?: number;
  /** Printed as is; omitted when undefined. */
  length?: number;
}

/**
 * One line in the seeds' `show(SampleNode)` shape:
 * `SampleNode(id: 1, stats: 5/8, score: 1.41, length: 4)`.
 * The score is rounded as Julia's `round(x, digits=2)` and printed by JavaScript, so `0.5`
 * (not `0.50`) and `2` where Julia prints `2.0`.
 *
 * @example
 * formatNode(tree.node(2), { length: 5 }); // 'SampleNode(id: 2, stats: 1/2, length: 5)'
 */
export function formatNode(node: TreeNode<unknown>, opts: FormatNodeOptions = {}): string {
  let text = `SampleNode(id: ${node.id}, stats: ${node.wins}/${node.visits}`;
  if (opts.score !== undefined) text += `, score: ${String(roundDigits(opts.score, 2))}`;
  if (opts.length !== undefined) text += `, length: ${opts.length}`;
  return `${text})`;
}

export interface FormatTreeOptions<D> {
  /** Default UCT(√2), as `print_samples`; `null` prints no scores. */
  scoring?: Scoring | null;
  /** Required for Thompson scoring (one draw per node, in printed order). */
  rng?: RandomSource;
  /** The `length:` field; omitted for a node when it returns undefined (default: always). */
  length?: (node: TreeNode<D>) => number | undefined;
  /** The node's own text instead of `SampleNode(...)` (other tree kinds, e.g. search agents). */
  render?: (node: TreeNode<D>) => string;
  /** Extra text after a node's line (separated by a space; skipped when empty), e.g. the answer. */
  label?: (node: TreeNode<D>) => string;
  /** Print from this node (default: the root). */
  fromId?: number;
  /** Deeper nodes are elided as `⋮` (like AbstractTrees' `maxdepth`); default unlimited. */
  maxDepth?: number;
  /**
   * Also print the branches rewinds abandoned (`SampleTree.abandon`; they stay in the tree for
   * audit but leave their parent's children): after each node's live children, every line
   * marked `[abandoned]` and scored by nobody (their statistics no longer count). Default false:
   * the seeds' shape, live tree only.
   */
  abandoned?: boolean;
}

/**
 * The whole tree as text, exactly in the shape of the seeds' `print_samples`:
 * ```
 * SampleNode(id: 0, stats: 6/12, score: 0.5, length: 2)
 * ├─ SampleNode(id: 1, stats: 5/8, score: 1.41, length: 4)
 * │  └─ SampleNode(id: 3, stats: 3/4, score: 1.77, length: 6)
 * └─ SampleNode(id: 2, stats: 1/4, score: 1.36, length: 4)
 * ```
 * Lines are joined by `\n` with no trailing newline. Rendering is iterative (deep chains are fine).
 *
 * @example
 * console.log(formatTree(tree, { length: (n) => n.data.length }));
 */
export function formatTree<D>(tree: SampleTree<D>, opts: FormatTreeOptions<D> = {}): string {
  const scoring = opts.scoring === undefined ? uct() : opts.scoring;
  const startId = opts.fromId ?? tree.rootId;
  const startDepth = tree.node(startId).depth;
  const pruned = opts.abandoned ? abandonedByParent(tree) : undefined;
  const lines: string[] = [];
  const stack: Array<{ id: number; prefix: string; connector: string }> = [{ id: startId, prefix: '', connector: '' }];
  while (stack.length > 0) {
    const { id, prefix, connector } = stack.pop()!;
    const node = tree.node(id);
    let line: string;
    if (opts.render) line = opts.render(node);
    else {
      const score = scoring === null || node.abandoned ? undefined : scoreNode(tree, id, scoring, opts.rng);
      line = formatNode(node, { score, length: opts.length?.(node) });
    }
    const label = opts.label?.(node);
    if (label) line += ` ${label}`;
    if (node.abandoned) line += ' [abandoned]';
    lines.push(prefix + connector + line);
    const children = pruned?.has(id) ? [...node.children, ...pruned.get(id)!] : node.children;
    if (children.length === 0) continue;
    const childPrefix = prefix + (connector === '' ? '' : connector === '├─ ' ? '│  ' : '   ');
    if (opts.maxDepth !== undefined && node.depth - startDepth >= opts.maxDepth) {
      lines.push(`${childPrefix}⋮`);
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const last = i === children.length - 1;
      stack.push({ id: children[i], prefix: childPrefix, connector: last ? '└─ ' : '├─ ' });
    }
  }
  return lines.join('\n');
}

/** The roots of abandoned branches, by the live node they grew from. */
function abandonedByParent<D>(tree: SampleTree<D>): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const id of tree.abandonedRoots()) {
    const parent = tree.node(id).parent!;
    byParent.set(parent, [...(byParent.get(parent) ?? []), id]);
  }
  return byParent;
}

/**
 * {@link formatTree} for a conversation tree, with `length:` filled from each node's
 * conversation length, as `print_samples` shows it.
 *
 * @example
 * console.log(formatSamples(tree));
 */
export function formatSamples(tree: SampleTree<ConversationDelta>, opts: FormatTreeOptions<ConversationDelta> = {}): string {
  // One pass from the start node down: each length is the parent's plus the node's delta.
  const lengths = new Map<number, number>();
  for (const node of tree.preorder(opts.fromId ?? tree.rootId)) {
    const parentLength =
      node.parent === null ? 0 : (lengths.get(node.parent) ?? conversationLength(tree, node.parent));
    lengths.set(node.id, deltaLength(node.id, node.data, parentLength));
  }
  // Abandoned nodes are off the live tree's walk: their lengths come from their own paths.
  return formatTree(tree, { length: (n) => lengths.get(n.id) ?? conversationLength(tree, n.id), ...opts });
}
