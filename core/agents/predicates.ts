import type { ToolSpec } from '../schemas/agent-activities';
import type { AssistantMessage } from '../schemas/messages';
import { runnableCalls } from '../conversation/fit-message';
import type { TreeNode } from '../tree/tree-node';
import type { AgentNode } from './agent-node';

/** What the termination predicates need to know about the run. */
export interface TerminationRules {
  threshold: number;
  maxDepth: number;
  toolChoice: 'auto' | 'required';
  specs: ToolSpec[];
}

/**
 * Termination, as Saplings defines it (the agents' docs spell it out as a table):
 * - an **output** node holds a text answer, or a call to a terminal tool;
 * - the agent **can generate output** when some tool is terminal or tool use is optional (`auto`);
 * - a **solution** scores at least the threshold and — when the agent can generate output — is an output node;
 *   a node whose evaluation failed (the evaluator threw or gave no valid score) is never one;
 * - a node is **terminal** when it is a solution, an output node, or at the maximum depth.
 */
export function isOutputMessage(message: AssistantMessage, specs: ToolSpec[]): boolean {
  if (!message.tool_calls?.length) return true;
  // Only calls that run count: a terminal call grove dropped (too many calls in one answer) ends nothing.
  return runnableCalls(message).some((c) => specs.find((s) => s.name === c.function.name)?.isTerminal === true);
}

export function canGenerateOutput(rules: TerminationRules): boolean {
  return rules.toolChoice === 'auto' || rules.specs.some((s) => s.isTerminal);
}

export function isSolution(node: TreeNode<AgentNode>, rules: TerminationRules): boolean {
  if (node.parent === null || node.score === undefined || node.score < rules.threshold || node.data.evaluationFailed !== undefined) return false;
  return !canGenerateOutput(rules) || node.data.output === true;
}

export function isTerminal(node: TreeNode<AgentNode>, rules: TerminationRules): boolean {
  return isSolution(node, rules) || endsTrajectory(node.data, node.depth, rules);
}

/** Whether a step ends its trajectory whatever its score: an output node, or one at the maximum depth. */
export function endsTrajectory(data: AgentNode, depth: number, rules: Pick<TerminationRules, 'maxDepth'>): boolean {
  return data.output === true || depth >= rules.maxDepth;
}
