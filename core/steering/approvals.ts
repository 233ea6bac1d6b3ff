import type { ApprovalRequest } from '../schemas/steering';
import { toolMessage, type ToolCall, type ToolMessage } from '../schemas/messages';

/** A tool call waiting for a person's decision (the `pending` query lists them). */
export interface PendingApproval {
  /** The tool call's id: what `approve({ callId })` names. */
  callId: string;
  tool: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
  /** Where the call was made: `turn 3`, `n4 candidate 2/3`. */
  where: string;
  /** Workflow time when it started waiting, and when the default decision applies. */
  requestedAt: number;
  deadline: number;
}

/** How a pending call was decided: by a person (`approve` update), by a stop, or by the timeout's default. */
export interface ApprovalOutcome {
  decision: 'approve' | 'reject';
  by: string;
  at: number;
  reason?: string;
  /** Nobody decided within the timeout: the run's default decision applied. */
  timedOut?: boolean;
}

/** What a run asks when a tool requiring approval is called. */
export interface ApprovalAsk {
  call: ToolCall;
  where: string;
}

/**
 * The tool calls of a run that wait for a person's decision, and the decisions made. Pure
 * bookkeeping: the workflow waits durably (`condition` with a timeout) until a decision is here.
 *
 * @example
 * const book = new ApprovalBook();
 * book.request(call, 'turn 2', now, now + timeoutMs);
 * const found = book.find({ by: 'ana' });              // the only pending call
 * book.decide(found.callId, { decision: 'approve', by: 'ana', at: now });
 */
export class ApprovalBook {
  private readonly waiting = new Map<string, PendingApproval>();
  private readonly decisions = new Map<string, ApprovalOutcome>();

  /** Registers a call as waiting; returns the id it waits under (the call id, made unique if two pending calls share one). */
  request(call: ToolCall, where: string, now: number, deadline: number): string {
    let callId = call.id;
    for (let i = 2; this.waiting.has(callId) || this.decisions.has(callId); i++) callId = `${call.id}#${i}`;
    this.waiting.set(callId, { callId, tool: call.function.name, arguments: call.function.arguments, where, requestedAt: now, deadline });
    return callId;
  }

  pending(): PendingApproval[] {
    return [...this.waiting.values()];
  }

  /** Which pending call a request decides (its `callId`, or the only one), or why none. */
  find(request: Pick<ApprovalRequest, 'callId'>): { ok: true; callId: string } | { ok: false; reason: string } {
    const ids = [...this.waiting.keys()];
    if (request.callId !== undefined) {
      if (this.waiting.has(request.callId)) return { ok: true, callId: request.callId };
      return { ok: false, reason: `no tool call ${request.callId} is waiting for approval${ids.length ? ` (waiting: ${ids.join(', ')})` : ' (none is)'}` };
    }
    if (ids.length === 1) return { ok: true, callId: ids[0] };
    return { ok: false, reason: ids.length === 0 ? 'no tool call is waiting for approval' : `${ids.length} tool calls are waiting (${ids.join(', ')}): say which with callId` };
  }

  decide(callId: string, outcome: ApprovalOutcome): void {
    if (!this.waiting.delete(callId)) return;
    this.decisions.set(callId, outcome);
  }

  decision(callId: string): ApprovalOutcome | undefined {
    return this.decisions.get(callId);
  }

  /** The pending calls' JSON (for a handover: a run only hands over when none waits, so this is for queries). */
  toJSON(): PendingApproval[] {
    return this.pending();
  }
}

/**
 * The tool message a refused call gets: the model (and the evaluator) read why it did not run.
 *
 * @example
 * rejectionMessage(call, { decision: 'reject', by: 'ana', at, reason: 'not that address' })
 * // { role: 'tool', content: 'Error: save_note was not run: ana rejected the call (not that address).' }
 */
export function rejectionMessage(call: ToolCall, outcome: ApprovalOutcome): ToolMessage {
  const why = outcome.timedOut
    ? 'nobody approved it in time, and the run rejects calls by default'
    : `${outcome.by} rejected the call${outcome.reason ? ` (${outcome.reason})` : ''}`;
  return toolMessage(call.id, `Error: ${call.function.name} was not run: ${why}.`);
}
