import { InvalidArgumentError } from '../errors';
import type { RandomSource } from '../random';
import type { SampleTree } from '../tree/sample-tree';
import { betaSample } from './distributions';
import type { Scoring } from './scoring';

/** Describes a value for an error message without throwing on cycles. */
function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The exploration bonus `c·√(ln(parentVisits)/visits)`, 0 without a parent or when the parent
 * has no visits (so a parent with a single visit also gives 0, since ln 1 = 0).
 */
function explorationBonus<D>(tree: SampleTree<D>, id: number, c: number): number {
  const node = tree.node(id);
  const parent = node.parent === null ? undefined : tree.node(node.parent);
  if (!parent || parent.visits === 0) return 0;
  return c * Math.sqrt(Math.log(parent.visits) / node.visits);
}

/**
 * A node's score under `scoring`, exactly as the seeds' `score`:
 * - UCT: 0 when unvisited (not ∞), else `wins/visits + c·√(ln(parent.visits)/visits)`,
 *   with no bonus at the root or under an unvisited parent;
 * - Thompson: a fresh draw from Beta(alpha + wins, beta + visits − wins) on every call, which
 *   is why it needs `rng`.
 *
 * @throws InvalidArgumentError for an unknown scoring or a Thompson call without `rng`.
 * @example
 * scoreNode(tree, id, uct(2));
 * scoreNode(tree, id, thompsonSampling(), rng);
 */
export function scoreNode<D>(tree: SampleTree<D>, id: number, scoring: Scoring, rng?: RandomSource): number {
  const node = tree.node(id);
  switch (scoring?.kind) {
    case 'uct':
      if (node.visits === 0) return 0;
      return node.wins / node.visits + explorationBonus(tree, id, scoring.exploration);
    case 'thompson':
      if (!rng) throw new InvalidArgumentError('Thompson sampling needs a random source (pass rng)');
      return betaSample(scoring.alpha + node.wins, scoring.beta + node.visits - node.wins, rng);
    default:
      throw new InvalidArgumentError(`unknown scoring ${describe(scoring)}: expected { kind: 'uct' } or { kind: 'thompson' }`);
  }
}

/**
 * UCT over real-valued rewards, for the search agents (LATS/MCTS): an unvisited node scores
 * its own evaluation (`score ?? 0`), otherwise `mean + c·√(ln(parent.visits)/visits)` with
 * the same no-bonus rules as {@link scoreNode}.
 *
 * @example
 * selectDescending(tree, { score: (n) => valueUct(tree, n.id, 1) });
 */
export function valueUct<D>(tree: SampleTree<D>, id: number, exploration = 1): number {
  const node = tree.node(id);
  if (node.visits === 0) return node.score ?? 0;
  return tree.mean(id) + explorationBonus(tree, id, exploration);
}
