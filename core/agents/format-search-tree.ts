import { formatTree } from '../format-tree';
import type { SampleTree } from '../tree/sample-tree';
import type { TreeNode } from '../tree/tree-node';
import type { AgentNode } from './agent-node';

/**
 * A search tree as text, in the seeds' tree shape, one line per step:
 * ```
 * n0 prompt
 * ├─ n1 d1 score 0.33 visits 2 value 0.50 → multiply({"a":9418.343,"b":8.11})
 * │  └─ n4 d2 score 0.83 [solution] → final_answer({"answer":...}) [output]
 * └─ n2 d1 score 0.17 → "I cannot do that" [output]
 * ```
 * With `abandoned`, the branches rewinds abandoned follow each node's live children, every
 * line marked `[abandoned]` (what `grove tree` prints).
 * (`[solution]`: the step that ended a solved trajectory (MCTS marks its trajectories; for every
 * algorithm, `solutionId` names the run's solution) — the steps above it are on its path,
 * not solutions themselves; `score`: the step's own evaluation; `value`: the mean of the scores
 * backed up through it (MCTS); `[evaluation failed]`: the evaluator threw or gave no valid score
 * for that step.)
 *
 * @example
 * console.log(formatSearchTree(state.tree, { bestId, solutionId: isSolution ? bestId : undefined }));
 */
export function formatSearchTree(tree: SampleTree<AgentNode>, opts: { bestId?: number; solutionId?: number; maxDepth?: number; maxNodes?: number; abandoned?: boolean } = {}): string {
  if (opts.maxNodes !== undefined && tree.size > opts.maxNodes && opts.bestId !== undefined) {
    // Too big to print whole: the best trajectory, one line per step.
    const path = tree.pathFromRoot(opts.bestId);
    const lines = path.map((node, i) => `${i === 0 ? '' : `${'   '.repeat(i - 1)}└─ `}${line(tree, node, opts)}`);
    return `${lines.join('\n')}\n(${tree.size - path.length} more nodes; the \`tree\` query returns them all)`;
  }
  return formatTree(tree, { maxDepth: opts.maxDepth, abandoned: opts.abandoned, render: (node) => line(tree, node, opts) });
}

function line(tree: SampleTree<AgentNode>, node: TreeNode<AgentNode>, { bestId, solutionId }: { bestId?: number; solutionId?: number }): string {
  if (node.parent === null) return `n${node.id} prompt${node.visits ? ` visits ${node.visits} value ${mean(node.valueSum, node.visits)}` : ''}`;
  const parts = [`n${node.id} d${node.depth}`];
  if (node.score !== undefined) parts.push(`score ${node.score.toFixed(2)}`);
  if (node.visits > 0) parts.push(`visits ${node.visits} value ${mean(node.valueSum, node.visits)}`);
  if (node.id === solutionId || isSolutionStep(tree, node)) parts.push('[solution]');
  if (node.id === bestId) parts.push('[best]');
  parts.push(`→ ${node.data.preview ?? ''}`);
  if (node.data.output) parts.push('[output]');
  if (node.data.toolErrors) parts.push(`[${node.data.toolErrors} tool error${node.data.toolErrors === 1 ? '' : 's'}]`);
  if (node.data.evaluationFailed) parts.push('[evaluation failed]');
  return parts.join(' ');
}

/** The last step of a solved trajectory: MCTS marks every step on it `solved`; only the one no solved child follows is the solution. */
function isSolutionStep(tree: SampleTree<AgentNode>, node: TreeNode<AgentNode>): boolean {
  return node.data.solved === true && !node.children.some((id) => tree.findNode(id)?.data.solved === true);
}

function mean(sum: number, visits: number): string {
  return (sum / visits).toFixed(2);
}
