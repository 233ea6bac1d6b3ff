import type { WorkflowService } from '@temporalio/client';
import { formatDifferences, parseIdentity, registryDifferences, type RegistryDescription } from '../../core/fleet/registry';

/** One worker polling a task queue, as Temporal lists it. */
export interface QueueWorker {
  /** The identity it polls with. */
  identity: string;
  /** The identity without grove's registry mark (`4242@host-a`). */
  worker: string;
  /** Its registry fingerprint; undefined for a worker without one (another SDK's, or without GrovePlugin). */
  fingerprint?: string;
  /** When it last polled (ms since the epoch). */
  lastSeenMs?: number;
}

/** A poller seen longer ago than this has stopped (a live worker polls again within a minute). */
export const POLLER_FRESH_MS = 90_000;

/**
 * The workers polling `queue` for workflow or activity tasks, each once, seen within the last
 * `POLLER_FRESH_MS` (Temporal keeps a stopped worker in the list for a few minutes).
 *
 * @example
 * const workers = await queueWorkers(client.workflowService, 'default', 'grove');
 */
export async function queueWorkers(service: WorkflowService, namespace: string, queue: string, nowMs = Date.now()): Promise<QueueWorker[]> {
  const byIdentity = new Map<string, QueueWorker>();
  for (const taskQueueType of [1, 2]) {
    // 1: TASK_QUEUE_TYPE_WORKFLOW, 2: TASK_QUEUE_TYPE_ACTIVITY
    const response = await service.describeTaskQueue({ namespace, taskQueue: { name: queue }, taskQueueType });
    for (const poller of response.pollers ?? []) {
      if (!poller.identity) continue;
      const lastSeenMs = poller.lastAccessTime?.seconds != null ? Number(poller.lastAccessTime.seconds) * 1000 + Math.floor((poller.lastAccessTime.nanos ?? 0) / 1e6) : undefined;
      if (lastSeenMs !== undefined && nowMs - lastSeenMs > POLLER_FRESH_MS) continue;
      const known = byIdentity.get(poller.identity);
      if (known && (known.lastSeenMs ?? 0) >= (lastSeenMs ?? 0)) continue;
      byIdentity.set(poller.identity, { identity: poller.identity, ...parseIdentity(poller.identity), ...(lastSeenMs !== undefined ? { lastSeenMs } : {}) });
    }
  }
  return [...byIdentity.values()].sort((a, b) => (a.worker < b.worker ? -1 : a.worker > b.worker ? 1 : 0));
}

/** Whether a queue's workers agree, and in what they differ. */
export interface FleetReport {
  workers: QueueWorker[];
  /** The distinct registries among them, with their descriptions where the store has them. */
  registries: { fingerprint: string; workers: string[]; description?: RegistryDescription }[];
  /** Workers polling without a grove registry. */
  unregistered: string[];
  /** True when every worker has one and the same registry. */
  agree: boolean;
  /** One line per pair of registries that differ, naming a worker of each and what differs. */
  differences: string[];
}

/**
 * What a queue's workers say about their registries: each registry once, its workers, and — for
 * registries whose description `describe` finds (workers publish theirs in the message store) —
 * what differs between them.
 *
 * @example
 * const report = await fleetReport(workers, (fp) => readRegistry(store, fp));
 * if (!report.agree) console.log(report.differences.join('\n'));
 */
export async function fleetReport(workers: QueueWorker[], describe: (fingerprint: string) => Promise<RegistryDescription | undefined>): Promise<FleetReport> {
  const groups = new Map<string, string[]>();
  for (const w of workers) if (w.fingerprint) groups.set(w.fingerprint, [...(groups.get(w.fingerprint) ?? []), w.worker]);
  const registries = await Promise.all(
    [...groups].map(async ([fingerprint, names]) => ({ fingerprint, workers: names, description: await describe(fingerprint).catch(() => undefined) })),
  );
  const unregistered = workers.filter((w) => !w.fingerprint).map((w) => w.worker);
  const differences: string[] = [];
  for (let i = 0; i < registries.length; i++) {
    for (let j = i + 1; j < registries.length; j++) differences.push(describeDifference(registries[i]!, registries[j]!));
  }
  return { workers, registries, unregistered, agree: registries.length <= 1 && unregistered.length === 0, differences };
}

/** `worker 4242@host-a (registry 3fa9…) and worker 77@host-b (registry 9a8b…): tool multiply differs (…)`. */
export function describeDifference(
  a: { fingerprint: string; workers: string[]; description?: RegistryDescription },
  b: { fingerprint: string; workers: string[]; description?: RegistryDescription },
): string {
  const [nameA, nameB] = [a.workers[0]!, b.workers[0]!];
  const what =
    a.description && b.description
      ? formatDifferences(registryDifferences(a.description.entries, b.description.entries), nameA, nameB)
      : `the store has no description of registry ${(a.description ? b : a).fingerprint}, so what differs is unknown`;
  return `worker ${nameA} (registry ${a.fingerprint}) and worker ${nameB} (registry ${b.fingerprint}) differ: ${what}`;
}
