import { logicalRef, refOfCallKey } from '../core/hash/call-ledger';
import { contentRef } from '../core/hash/refs';
import { activityContext } from './activity-context';
import type { MessageStore } from './store/message-store';

/**
 * Runs a paid call — a model call, a tool run, an evaluation — at most once per call key, and
 * records its result in the store before the activity reports it:
 *
 * - a retry of the activity (the worker died after the work finished, before Temporal heard of
 *   it) returns the recorded result instead of paying again;
 * - a run that *descends* from the one that paid — a reset, a resume, a retry on another worker —
 *   computes the same ledger key for the same request (`CallLedger`) and gets the result back.
 *
 * The record's key is `<workflowId>/<ledger key>` (`<workflowId>/g<generation>/<request ref>/<k>`),
 * or `shared/<request ref>/<k>` when the run opted into a shared cache. The request ref is checked
 * against this activity's own input, so a record is only ever served for exactly this request.
 * Inputs without a ledger key (workflows that do not use one) fall back to the activity's
 * identity `<workflowId>/<runId>/<activityId>#<input ref>`: crash-safe, not reusable by resets.
 *
 * Outside a Temporal activity (in-process runs) it just runs the work.
 *
 * @example
 * return callOnce(store, 'llmChat', input, () => client.chat.completions.create(body));
 */
export async function callOnce<T>(store: MessageStore, kind: string, input: { callKey?: string }, work: () => Promise<T>): Promise<T> {
  const key = recordKey(kind, input);
  if (!key) return work();
  const owner = activityContext()?.info.workflowExecution?.workflowId;
  const recorded = await store.getCallResult(key);
  if (recorded !== undefined) return recorded as T;
  const result = await work();
  await store.putCallResult(key, result, owner);
  return result;
}

/** Where this call's result is recorded, or undefined outside an activity. */
export function recordKey(kind: string, input: { callKey?: string }): string | undefined {
  const info = activityContext()?.info;
  const execution = info?.workflowExecution;
  if (!info || !execution) return undefined;
  const ledgerKey = input.callKey;
  if (ledgerKey && refOfCallKey(ledgerKey) === logicalRef(kind, input)) {
    return ledgerKey.startsWith('shared/') ? ledgerKey : `${execution.workflowId}/${ledgerKey}`;
  }
  return `${execution.workflowId}/${execution.runId}/${info.activityId}#${contentRef(input)}`;
}

/**
 * What a model endpoint sees as `x-grove-call-key`: the call's ledger key under its workflow id
 * (`<workflowId>/g0/<request ref>/<k>`) when the workflow keyed it — the same for every run that
 * re-makes this exact call (a retry, a reset, a resume), so a provider's log (or grove's scripted
 * model server) tells a call paid twice from a new one — else the activity's identity
 * `<workflowId>/<runId>/<activityId>`.
 *
 * @example
 * headers: { 'x-grove-call-key': requestKey('llmChat', input) }
 */
export function requestKey(kind: string, input: { callKey?: string }): string | undefined {
  const info = activityContext()?.info;
  const execution = info?.workflowExecution;
  if (!info || !execution) return undefined;
  const ledgerKey = input.callKey;
  if (ledgerKey && refOfCallKey(ledgerKey) === logicalRef(kind, input)) return `${execution.workflowId}/${ledgerKey}`;
  return `${execution.workflowId}/${execution.runId}/${info.activityId}`;
}
