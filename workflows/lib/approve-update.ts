import { defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';
import { ApprovalRequestSchema, type ApprovalRequest, type HumanAction } from '../../core/schemas/steering';
import type { ApprovalBook, ApprovalOutcome, PendingApproval } from '../../core/steering/approvals';
import { rejectUpdate, steeringUpdate } from './update-checks';

export const approveUpdate = defineUpdate<ApprovalOutcome & { callId: string }, [ApprovalRequest]>('approve');
export const pendingQuery = defineQuery<PendingApproval[]>('pending');

/**
 * The `approve` update and the `pending` query of a run whose tools may require approval. The
 * validator rejects — before anything is recorded — a decision on a call that is not waiting
 * (naming the ones that are), an ambiguous one (several waiting, no `callId`), and any decision
 * once the run has finished.
 *
 * @example
 * registerApprovals(book, { log: () => actions, finished: () => (state.stop ? 'the search has ended' : undefined) });
 */
export function registerApprovals(
  book: ApprovalBook,
  hooks: { log: () => { record(action: Omit<HumanAction, 'seq'>): unknown } | undefined; finished: () => string | undefined; changed?: () => void },
): void {
  const find = (request: { callId?: string }): string => {
    const finished = hooks.finished();
    if (finished) rejectUpdate('approve', finished);
    const found = book.find(request);
    if (!found.ok) rejectUpdate('approve', found.reason);
    return found.callId;
  };
  steeringUpdate(approveUpdate, ApprovalRequestSchema, 'approve', {
    description: 'Approve or reject a tool call waiting for approval.',
    check: (request) => void find(request),
    run: async (request) => {
      const callId = find(request);
      const pending = book.pending().find((p) => p.callId === callId)!;
      const outcome: ApprovalOutcome = { decision: request.decision, by: request.by, at: Date.now(), ...(request.reason ? { reason: request.reason } : {}) };
      book.decide(callId, outcome);
      hooks.log()?.record({ at: outcome.at, by: request.by, action: request.decision, target: `call ${callId} (${pending.tool})`, detail: request.reason });
      hooks.changed?.();
      return { callId, ...outcome };
    },
  });
  setHandler(pendingQuery, () => book.pending());
}
