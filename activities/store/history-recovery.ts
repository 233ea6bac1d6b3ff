import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { isRef, messageRef, pathRef, type PathRecord, type Ref } from '../../core/hash/refs';
import { forkParent } from '../../core/runs/fork';
import type { Message } from '../../core/schemas/messages';
import type { StoreEntry } from './message-store';

/** How far back a continue-as-new chain is searched. */
const MAX_RUNS = 200;
/** How long a scanned history is kept for the other activities of the same run that miss too. */
const REUSE_MS = 60_000;

export interface RunExecution {
  workflowId: string;
  runId: string;
}

/**
 * Every message and path record that a run's history holds, by ref: activity inputs carry the
 * store entries the store may lack, activity results carry the new messages, and the run's input
 * carries its prompt — so whatever a run ever stored also sits in its Temporal history (and in
 * the histories of the runs it continued from). This is grove's recovery when the message store
 * lost something or cannot see it (a wiped folder, a folder that is not shared between hosts):
 * the store is a cache of content whose durable record is the history, which keeps references
 * small on the normal path. A fork (`ForkOrigin`) refers to content its parent stored, so the
 * parent's history (and its own chain, and its parent's) is read too. Each entry is verified against its content address, so nothing
 * wrong can come back.
 *
 * Closed runs' histories are deleted after the namespace's retention period: content from a run
 * that continued as new longer ago than that can no longer be recovered this way (a networked
 * store is the answer for searches that run that long).
 *
 * @example
 * const found = await contentFromHistory(Context.current().client, { workflowId, runId });
 * const message = found.get(ref);
 */
export async function contentFromHistory(client: Client, execution: RunExecution): Promise<Map<Ref, StoreEntry>> {
  const found = new Map<Ref, StoreEntry>();
  const lineage: { workflowId: string; runId?: string }[] = [execution];
  const seen = new Set([execution.workflowId]);
  let scanned = 0;
  while (lineage.length > 0 && scanned < MAX_RUNS) {
    const next = lineage.shift()!;
    const workflowId = next.workflowId;
    let runId = next.runId; // a fork's parent without a run id: its latest run
    for (let first = true; (first || runId) && scanned < MAX_RUNS; first = false, scanned++) {
      const history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> = await client.workflow.getHandle(workflowId, runId).fetchHistory();
      runId = undefined;
      for (const event of history.events ?? []) {
        const started = event.workflowExecutionStartedEventAttributes;
        if (started?.continuedExecutionRunId) runId = started.continuedExecutionRunId;
        for (const payloads of payloadLists(event)) {
          const values = await decodeArrayFromPayloads(client.options.loadedDataConverter, payloads).catch(() => []);
          for (const value of values) collect(value, found);
          // A fork's content before its node lives in its parent's history.
          const parent = started ? forkParent(values[0]) : undefined;
          if (parent && !seen.has(parent.workflowId)) {
            seen.add(parent.workflowId);
            lineage.push(parent);
          }
        }
      }
    }
  }
  return found;
}

/**
 * `contentFromHistory` shared by the activities of a worker: one history read per run however
 * many of its activities miss at once. A read that started before `notBeforeMs` is too old for
 * the caller (the history has grown since) and is done again.
 */
export function historyReader(): (client: Client, execution: RunExecution, notBeforeMs?: number) => Promise<Map<Ref, StoreEntry>> {
  const recent = new Map<string, { atMs: number; content: Promise<Map<Ref, StoreEntry>> }>();
  return (client, execution, notBeforeMs = 0) => {
    const key = `${execution.workflowId}/${execution.runId}`;
    const now = Date.now();
    for (const [k, v] of recent) if (now - v.atMs > REUSE_MS) recent.delete(k);
    let entry = recent.get(key);
    if (!entry || entry.atMs < notBeforeMs) {
      entry = { atMs: now, content: contentFromHistory(client, execution) };
      const mine = entry;
      mine.content.catch(() => recent.get(key) === mine && recent.delete(key));
      recent.set(key, entry);
    }
    return entry.content;
  };
}

/** Every `Payloads` list in an event's attributes (inputs, results, details...). */
function payloadLists(value: unknown, out: Payload[][] = [], depth = 0): Payload[][] {
  if (value === null || typeof value !== 'object' || depth > 6) return out;
  if (Array.isArray((value as { payloads?: unknown }).payloads)) {
    out.push((value as { payloads: Payload[] }).payloads);
    return out;
  }
  for (const child of Object.values(value as Record<string, unknown>)) payloadLists(child, out, depth + 1);
  return out;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** Walks a decoded value and keeps everything shaped like a message or a path record, under its own content address. */
function collect(value: unknown, found: Map<Ref, StoreEntry>): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found);
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.role === 'string' && ROLES.has(record.role)) {
    const message = record as unknown as Message;
    found.set(messageRef(message), message);
  }
  if (Array.isArray(record.add) && record.add.every(isRef) && (record.parent === null || isRef(record.parent))) {
    const path: PathRecord = { parent: record.parent as Ref | null, add: record.add as Ref[] };
    if (typeof record.keep === 'number') path.keep = record.keep;
    found.set(pathRef(path), path);
  }
  for (const child of Object.values(record)) collect(child, found);
}
