import { formatTree } from '../format-tree';
import type { SampleTree } from '../tree/sample-tree';
import type { AgentNode } from './agent-node';

/**
 * A search tree as text, in the seeds' tree shape, one line per step:
 * ```
 * n0 prompt
 * ├─ n1 d1 score 0.33 visits 2 value 0.50 → multiply({"a":9418.343,"b":8.11})
 * │  └─ n4 d2 score 0.83 [solved] → final_answer({"answer":...}) [output]
 * └─ n2 d1 score 0.17 → "I cannot do that" [output]
 * ```
 *
 * @example
 * console.log(formatSearchTree(state.tree, { bestId }));
 */
export function formatSearchTree(tree: SampleTree<AgentNode>, opts: { bestId?: number; maxDepth?: number } = {}): string {
  return formatTree(tree, {
    maxDepth: opts.maxDepth,
    render: (node) => {
      if (node.parent === null) return `n${node.id} prompt${node.visits ? ` visits ${node.visits} value ${mean(node.valueSum, node.visits)}` : ''}`;
      const parts = [`n${node.id} d${node.depth}`];
      if (node.score !== undefined) parts.push(`score ${node.score.toFixed(2)}`);
      if (node.visits > 0) parts.push(`visits ${node.visits} value ${mean(node.valueSum, node.visits)}`);
      if (node.data.solved) parts.push('[solved]');
      if (node.id === opts.bestId) parts.push('[best]');
      parts.push(`→ ${node.data.preview ?? ''}`);
      if (node.data.output) parts.push('[output]');
      if (node.data.toolErrors) parts.push(`[${node.data.toolErrors} tool error${node.data.toolErrors === 1 ? '' : 's'}]`);
      return parts.join(' ');
    },
  });
}

function mean(sum: number, visits: number): string {
  return (sum / visits).toFixed(2);
}
