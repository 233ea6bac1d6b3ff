import type { ViewTree } from '../model/view-tree';
import { h } from './dom';
import { STATUS_COLORS } from './tree-colors';

/**
 * The best path as a numbered list of steps — each node's words, score and status — beside the
 * tree: the path a person wants to follow, readable at any size of tree. A click shows the step
 * on the tree (unfolding and panning to it) and its conversation.
 *
 * @example
 * side.append(bestPathList(view.tree, (id) => select(id)));
 */
export function bestPathList(tree: ViewTree, onPick: (id: number) => void): HTMLElement {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const steps = tree.bestPath.map((id) => byId.get(id)).filter((n) => n !== undefined);
  return h(
    'details',
    { class: 'best-path', open: true },
    h('summary', {}, `Best path · ${Math.max(0, steps.length - 1)} step${steps.length === 2 ? '' : 's'}`),
    h(
      'ol',
      { start: 0 },
      ...steps.map((n) =>
        h(
          'li',
          { 'data-node': n.id, class: `s-${n.status}`, onclick: () => onPick(n.id) },
          h('i', { class: 'dot', style: `background:${STATUS_COLORS[n.status]}` }),
          h('span', { class: 'id' }, `n${n.id}`),
          ' ',
          h('span', { class: 'text' }, n.label || '(no label kept)'),
          n.score === undefined ? undefined : h('span', { class: 'score' }, n.score.toFixed(2)),
        ),
      ),
    ),
  );
}
