import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { redactLine } from './redact-line';

/** Summaries found, by run and activity id: a scheduled activity's summary never changes. */
const known = new Map<string, string | null>();

/**
 * The one-line summary a workflow gave an activity when it scheduled it (what the Temporal UI
 * shows: `expand n4 (depth 2): 3 candidates`, `samples 7-8 ← 4`), read from the newest pages of
 * the run's history (at most `pages` of 200 events, newest first: a call that streams was
 * scheduled a moment ago). Undefined when it has none or was not found there. Remembered per
 * run and activity.
 *
 * @example
 * await activitySummary(client, { workflowId: 'agent-1a2b', runId }, '12'); // 'expand n4 (depth 2): 3 candidates'
 */
export async function activitySummary(client: Client, run: { workflowId: string; runId: string }, activityId: string, pages = 3): Promise<string | undefined> {
  const key = `${run.runId}/${activityId}`;
  if (known.has(key)) return known.get(key) ?? undefined;
  let token: Uint8Array | undefined;
  for (let page = 0; page < pages; page++) {
    const res = await client.workflowService
      .getWorkflowExecutionHistoryReverse({ namespace: client.options.namespace, execution: run, maximumPageSize: 200, nextPageToken: token })
      .catch(() => undefined);
    if (!res) return undefined; // not remembered: asked again next time
    for (const event of res.history?.events ?? []) {
      if (event.activityTaskScheduledEventAttributes?.activityId !== activityId) continue;
      const summary = payloadText(client, event.userMetadata?.summary);
      remember(key, summary ?? null);
      return summary;
    }
    if (!res.nextPageToken?.length) break;
    token = res.nextPageToken;
  }
  remember(key, null);
  return undefined;
}

/**
 * A user-metadata payload (an activity's summary) as the text the Temporal UI shows, redacted;
 * undefined when there is none or it cannot be read.
 */
export function payloadText(client: Client, payload: temporal.api.common.v1.IPayload | null | undefined): string | undefined {
  if (!payload) return undefined;
  try {
    return redactLine(String(client.options.loadedDataConverter.payloadConverter.fromPayload(payload)));
  } catch {
    return undefined;
  }
}

function remember(key: string, value: string | null): void {
  known.set(key, value);
  if (known.size > 2_000) known.delete(known.keys().next().value!);
}
