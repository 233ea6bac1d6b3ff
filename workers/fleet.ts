import { Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { publishRegistry, readRegistry } from '../activities/registry/registry-store';
import type { FleetState } from '../activities/registry/worker-registry';
import type { MessageStore } from '../activities/store/message-store';
import { describeDifference, queueWorkers } from '../client/fleet/queue-workers';
import { parseIdentity, registryQueue } from '../core/fleet/registry';

/** How a worker takes part in a fleet (`GrovePlugin({ fleet })`). */
export interface FleetOptions {
  /** Where the worker reports other workers on its task queue whose registries differ; default its logger (WARN). */
  report?: (line: string) => void;
  /** How often it looks at the queue's other workers. Default 60 s (the first look is at start). */
  watchIntervalMs?: number;
}

/**
 * Runs `next` (the worker itself) with what makes a fleet agree:
 *
 * - a companion worker on `<queue>@<fingerprint>` serving grove's activities, so the tools and
 *   evaluators of runs bound to this registry reach only workers that have it;
 * - this worker's registry published in the message store (for others to say what differs);
 * - a watch over the queue's pollers that reports, once per registry, any other worker whose
 *   registry differs from this one — naming both workers and what differs.
 *
 * A companion that fails stops the worker; the worker stopping stops the companion.
 */
export async function runInFleet(
  worker: Worker,
  fleet: FleetState,
  opts: { activities: WorkerOptions['activities']; interceptors: WorkerOptions['interceptors']; store: MessageStore } & FleetOptions,
  next: () => Promise<void>,
): Promise<void> {
  const connection = worker.connection;
  const queue = worker.options.taskQueue;
  const fingerprint = fleet.registry.fingerprint;
  if (!connection || queue.endsWith(`@${fingerprint}`)) return next(); // a replay worker, or the companion itself
  fleet.identity = parseIdentity(worker.options.identity).worker;
  const companion = await Worker.create({
    connection,
    namespace: worker.options.namespace,
    taskQueue: registryQueue(queue, fingerprint),
    identity: worker.options.identity,
    activities: opts.activities,
    interceptors: opts.interceptors,
  });
  fleet.routed = true;
  fleet.peers = async () => {
    const others = (await queueWorkers(connection.workflowService, worker.options.namespace, queue)).filter((w) => w.identity !== worker.options.identity);
    return Promise.all(others.map(async (w) => ({ ...w, description: w.fingerprint ? await readRegistry(opts.store, w.fingerprint).catch(() => undefined) : undefined })));
  };
  const report = opts.report ?? ((line: string) => Runtime.instance().logger.warn(line));
  const reported = new Set<string>();
  const look = async () => {
    await publishRegistry(opts.store, fleet.registry);
    for (const other of await fleet.peers!()) {
      const key = other.fingerprint ?? `worker ${other.worker}`;
      if (other.fingerprint === fingerprint || reported.has(key)) continue;
      reported.add(key);
      if (!other.fingerprint) {
        report(`grove: worker ${other.worker} polls task queue "${queue}" without a grove registry (no GrovePlugin, or an older grove): runs it starts run their tools on whichever worker takes each call`);
        continue;
      }
      const mine = { fingerprint, workers: [fleet.worker()], description: fleet.registry };
      const theirs = { fingerprint: other.fingerprint, workers: [other.worker], description: other.description };
      report(
        `grove: on task queue "${queue}", ${describeDifference(mine, theirs)}. Each run uses the registry of the worker that starts it, and its tools and evaluators run only on workers with that registry`,
      );
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const watch = () => {
    timer = setTimeout(() => void look().catch(() => {}).finally(() => companion.getState() === 'RUNNING' && watch()), opts.watchIntervalMs ?? 60_000);
    timer.unref();
  };
  let companionFailed: unknown;
  const companionRun = companion.run().catch((err: unknown) => {
    companionFailed = err;
    if (worker.getState() === 'RUNNING') worker.shutdown();
  });
  try {
    await look().catch(() => {}); // describing the queue is a convenience: never fail the worker over it
    watch();
    await next();
  } finally {
    clearTimeout(timer);
    if (companion.getState() === 'RUNNING') companion.shutdown();
    await companionRun;
    fleet.routed = false;
    fleet.peers = undefined;
  }
  if (companionFailed) throw companionFailed;
}
