import { bestNode } from '../best-node';
import { isTerminal, type TerminationRules } from '../predicates';
import type { SearchState, SearchStateJSON } from '../search-state';

/**
 * The state to hand over through continue-as-new, compacted: what only the live UI needs is
 * dropped — each node's evaluator reasoning, and the previews of nodes off the best trajectory
 * so far — and so are the trajectory refs of finished leaves off it (no search expands a
 * terminal node, and the final answer is the best node so far or a newer one) and of branches a
 * rewind abandoned. A search of 10,000 nodes then hands over well under Temporal's payload
 * limits.
 *
 * @example
 * await continueAsNew({ ...input, state: handoverJSON(state, rules) });
 */
export function handoverJSON(state: SearchState, rules: TerminationRules): SearchStateJSON {
  const json = state.toJSON();
  const tree = state.tree;
  const keep = new Set(tree.pathToRoot(state.solutionId ?? bestNode(tree).id).map((n) => n.id));
  for (const tuple of json.tree.nodes) {
    const id = tuple[0];
    if (keep.has(id)) {
      const { reasoning: _r, ...rest } = tuple[2];
      tuple[2] = rest;
      continue;
    }
    const { reasoning: _r, preview: _p, ref, ...rest } = tuple[2];
    const node = tree.node(id);
    if (node.abandoned) {
      // Pruned by a rewind: never expanded or resolved again.
      const { pending: _q, inline: _i, ...kept } = rest;
      tuple[2] = kept;
      continue;
    }
    const closed = node.children.length === 0 && isTerminal(node, rules) && !rest.pending;
    tuple[2] = closed ? rest : { ...rest, ref };
  }
  return json;
}
