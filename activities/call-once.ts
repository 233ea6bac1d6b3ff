import { contentRef } from '../core/hash/refs';
import { callKey } from './activity-context';
import type { MessageStore } from './store/message-store';

/**
 * Runs an activity's work at most once per scheduled activity, across worker crashes: the
 * result is written to the store under the activity's call key (`<workflowId>/<runId>/
 * <activityId>`, the same for every attempt, plus a hash of the input) before the activity
 * reports it. If the worker dies
 * after the work finished but before Temporal heard of it, the retry finds the result and
 * returns it — the model call (or the tool's side effect) is not paid for twice. What remains
 * is the few milliseconds between the work finishing and the store write.
 *
 * Outside a Temporal activity (in-process runs) it just runs the work.
 *
 * @example
 * return callOnce(store, input, () => client.chat.completions.create(body));
 */
export async function callOnce<T>(store: MessageStore, input: unknown, work: () => Promise<T>): Promise<T> {
  const activity = callKey();
  if (!activity) return work();
  const key = `${activity}#${contentRef(input)}`;
  const recorded = await store.getCallResult(key);
  if (recorded !== undefined) return recorded as T;
  const result = await work();
  await store.putCallResult(key, result);
  return result;
}
