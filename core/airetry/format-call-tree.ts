import type { ConversationDelta } from '../conversation/delta';
import { messagePreview } from '../conversation/preview';
import { formatSamples } from '../format-tree';
import type { SampleTree } from '../tree/sample-tree';

/**
 * A call's sample tree as the seeds' `print_samples` text; with `answers`, each sample's
 * answer follows its line and the active sample is marked:
 * ```
 * SampleNode(id: 0, stats: 6/12, score: 0.5, length: 2)
 * ├─ SampleNode(id: 1, stats: 5/8, score: 1.41, length: 3) → "Blue"
 * ```
 * With `abandoned`, the samples rewinds abandoned are printed too, marked `[abandoned]`.
 */
export function formatCallTree(tree: SampleTree<ConversationDelta>, opts: { activeSampleId?: number; answers?: boolean; abandoned?: boolean } = {}): string {
  return formatSamples(tree, {
    abandoned: opts.abandoned,
    label: opts.answers
      ? (node) => {
          const last = node.data.add[node.data.add.length - 1];
          if (node.parent === null || !last) return '';
          return `→ ${JSON.stringify(messagePreview(last, 60))}${node.id === opts.activeSampleId ? ' (active)' : ''}`;
        }
      : undefined,
  });
}
