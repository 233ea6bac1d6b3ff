import type { ConversationInput } from '../../hash/conversation-refs';
import { messageRef } from '../../hash/refs';
import type { RunToolResult } from '../../schemas/agent-activities';
import type { ToolCall } from '../../schemas/messages';
import { rejectionMessage, type ApprovalOutcome } from '../../steering/approvals';
import { markWritten, trajectoryInput } from '../path-book';
import type { SearchEnv } from './search-ops';

/** A tool's answer; `refused` when no tool ran (a person refused the call, or grove dropped it). */
export type ToolRun = RunToolResult & { refused?: boolean };

/**
 * Runs one tool call — after a person approved it, when its tool requires approval; a refused
 * call is answered with a tool message saying so (written by no activity: it rides inline).
 *
 * @example
 * const result = await runTool(env, call, trajectoryInput(tree, 2), ['multiply'], 'n2 candidate 1/3', 'tool multiply for n2 candidate 1/3');
 */
export async function runTool(env: SearchEnv, call: ToolCall, trajectory: ConversationInput, offered: string[], where: string, summary: string): Promise<ToolRun> {
  const { port } = env;
  const spec = env.state.specs.find((s) => s.name === call.function.name);
  if (!spec?.requiresApproval || !offered.includes(spec.name)) return port.runTool({ trajectory, call, offered }, summary, spec?.fast && offered.includes(spec.name) ? { fast: true } : undefined);
  const outcome: ApprovalOutcome = port.approve
    ? await port.approve({ call, where })
    : { decision: 'reject', by: 'nobody', at: port.nowMs(), reason: 'nobody can approve calls in this run' };
  if (outcome.decision === 'reject') {
    const message = rejectionMessage(call, outcome);
    return { message, ref: messageRef(message), isError: true, refused: true };
  }
  return port.runTool({ trajectory, call, offered, approval: { by: outcome.by, at: outcome.at } }, summary);
}

/**
 * The tools offered when expanding `nodeId`: all of them, unless some tool decides when it is
 * active — then an activity asks them.
 *
 * @example
 * const offered = await offeredTools(env, 0); // ['multiply', 'answer']
 */
export async function offeredTools(env: SearchEnv, nodeId: number): Promise<string[]> {
  const { state } = env;
  const names = state.specs.map((s) => s.name);
  if (!state.specs.some((s) => s.hasIsActive)) return names;
  const input = trajectoryInput(state.tree, nodeId);
  const active = await env.port.activeTools({ names, trajectory: input }, `active tools at n${nodeId}`);
  markWritten(state.tree, nodeId, input);
  return active;
}
