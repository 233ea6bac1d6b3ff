import { condition } from '@temporalio/workflow';
import type { ApprovalSettings, HumanAction } from '../../core/schemas/steering';
import type { ApprovalAsk, ApprovalBook, ApprovalOutcome } from '../../core/steering/approvals';

/**
 * The workflow's wait for a person's decision on a tool call that requires approval: the call
 * is listed as pending (the `pending` query, the UI's details) and the run waits durably — a
 * `condition` with the approval timeout, so a worker that dies meanwhile changes nothing — until
 * an `approve` update decides it, a stop rejects it, or the timeout applies the default.
 * Decisions that were not a person's (timeout, stop) are logged too.
 *
 * @example
 * const approve = approvalWaiter(book, settings, { record: (a) => log.record(a), stopped: () => state.stop, changed: showDetails });
 * const outcome = await approve({ call, where: 'turn 2' });
 */
export function approvalWaiter(
  book: ApprovalBook,
  settings: ApprovalSettings,
  hooks: { record: (action: Omit<HumanAction, 'seq'>) => void; stopped: () => { by: string } | undefined; changed?: () => void },
): (ask: ApprovalAsk) => Promise<ApprovalOutcome> {
  return async (ask) => {
    const now = Date.now();
    const callId = book.request(ask.call, ask.where, now, now + settings.timeoutMs);
    hooks.changed?.();
    await condition(() => book.decision(callId) !== undefined || hooks.stopped() !== undefined, settings.timeoutMs);
    if (book.decision(callId) === undefined) {
      const stop = hooks.stopped();
      const outcome: ApprovalOutcome = stop
        ? { decision: 'reject', by: stop.by, at: Date.now(), reason: 'the run was stopped' }
        : { decision: settings.onTimeout, by: 'timeout', at: Date.now(), timedOut: true };
      book.decide(callId, outcome);
      hooks.record({ at: outcome.at, by: outcome.by, action: outcome.decision, target: `call ${callId} (${ask.call.function.name})`, detail: outcome.reason ?? 'no decision within the approval timeout' });
    }
    hooks.changed?.();
    return book.decision(callId)!;
  };
}
