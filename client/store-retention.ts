import type { Client } from '@temporalio/client';
import type { CollectReport, MessageStore } from '../activities/store/message-store';

export interface CollectOptions {
  /** Keep what runs closed less than this long ago still own; default the namespace's retention. */
  retentionMs?: number;
  dryRun?: boolean;
  /** The clock (tests). */
  nowMs?: number;
}

/**
 * Deletes from the store what belongs only to runs that closed longer ago than the retention:
 * their store entries and recorded call results. An owner (a workflow id) is live while its
 * latest run is open or closed within the retention; Temporal itself deletes closed runs after
 * the namespace's retention, so a workflow id it no longer knows is dead too. Entries shared
 * with a live run, and anything written within the retention, are kept.
 *
 * @example
 * const report = await collectGarbage(store, client, { retentionMs: 7 * 86_400_000 });
 */
export async function collectGarbage(store: MessageStore, client: Client, opts: CollectOptions = {}): Promise<CollectReport & { retentionMs: number }> {
  const retentionMs = opts.retentionMs ?? (await namespaceRetentionMs(client));
  const now = opts.nowMs ?? Date.now();
  const cutoff = now - retentionMs;
  const report = await store.collect({
    keepNewerThanMs: cutoff,
    dryRun: opts.dryRun,
    async isLive(owner) {
      try {
        const { status, closeTime } = await client.workflow.getHandle(owner).describe();
        return status.name === 'RUNNING' || (closeTime !== undefined && closeTime.getTime() >= cutoff);
      } catch (err) {
        if ((err as Error).name === 'WorkflowNotFoundError') return false;
        throw err;
      }
    },
  });
  return { ...report, retentionMs };
}

/** The namespace's workflow execution retention (how long Temporal keeps closed runs). */
export async function namespaceRetentionMs(client: Client): Promise<number> {
  const { config } = await client.workflowService.describeNamespace({ namespace: client.options.namespace });
  const ttl = config?.workflowExecutionRetentionTtl;
  return ttl ? Number(ttl.seconds ?? 0) * 1000 + Math.floor((ttl.nanos ?? 0) / 1e6) : 86_400_000;
}
