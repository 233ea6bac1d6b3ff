import type { Client } from '@temporalio/client';
import { figuresOfProgress, type RunFigures } from '../../core/runs/run-figures';
import type { PendingApproval } from '../../core/steering/approvals';

/** A running run's figures as its workers know them now, and the tool calls waiting for a person. */
export interface LiveFigures {
  figures: RunFigures;
  /** Tool calls waiting for approval (agent, session), with who must act: `grove approve <id>`. */
  waiting: PendingApproval[];
}

/**
 * Reads a running run's figures from its `progress` query (and its approvals from `pending`),
 * because its search attributes (`GroveCalls`, `GroveBestScore`) are written only now and then —
 * `grove list`, the viewer's list and `grove progress` show what the run has spent so far, not its
 * last report. Undefined when no worker answers within `timeoutMs` (the caller keeps the
 * attributes, and says they are the last report).
 *
 * @example
 * const live = await liveFigures(client, 'agent-1a2b', 'agent:mcts');
 * live?.figures.modelCalls; // 24
 */
export async function liveFigures(client: Client, workflowId: string, kind: string, timeoutMs = 3000): Promise<LiveFigures | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  const ask = <T>(name: string) => client.withDeadline(Date.now() + timeoutMs, () => handle.query<T>(name));
  const progress = await ask<Record<string, unknown>>('progress').catch(() => undefined);
  if (!progress) return undefined;
  const waiting = kind.startsWith('agent') || kind === 'session' ? await ask<PendingApproval[]>('pending').catch(() => []) : [];
  return { figures: figuresOfProgress(kind, progress), waiting };
}

/**
 * What a person must do for a run waiting on them, in one line: `waiting for approval of
 * save_note (call c1): grove approve chat-1`; empty when nothing waits.
 *
 * @example
 * waitingLine('chat-1', live.waiting);
 */
export function waitingLine(workflowId: string, waiting: readonly PendingApproval[]): string {
  if (waiting.length === 0) return '';
  const first = waiting[0];
  const more = waiting.length > 1 ? ` (+${waiting.length - 1} more: grove approve ${workflowId} --list)` : '';
  return `waiting for approval of ${first.tool} (call ${first.callId}, ${first.where}): grove approve ${workflowId}${waiting.length > 1 ? ` --call ${first.callId}` : ''}${more}`;
}
