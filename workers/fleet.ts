import { Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from '@temporalio/common';
import { publishRegistry, readRegistry } from '../activities/registry/registry-store';
import type { FleetState } from '../activities/registry/worker-registry';
import type { MessageStore } from '../activities/store/message-store';
import { describeDifference } from '../temporal/fleet/queue-workers';
import { watchQueue } from '../temporal/fleet/watch-queue';
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
  quietAboutWorkflows(companion);
  fleet.routed = true;
  const report = opts.report ?? ((line: string) => Runtime.instance().logger.warn(line));
  const mine = { fingerprint, workers: [fleet.worker()], description: fleet.registry };
  const watch = watchQueue({
    service: connection.workflowService,
    namespace: worker.options.namespace,
    queue,
    describe: (fp) => readRegistry(opts.store, fp),
    ignore: (w) => w.identity === worker.options.identity,
    intervalMs: opts.watchIntervalMs,
    onNew: async (other) => {
      await publishRegistry(opts.store, fleet.registry); // again: a store's retention may have deleted it
      if (other.fingerprint === fingerprint) return;
      report(
        other.fingerprint
          ? `grove: on task queue "${queue}", ${describeDifference(mine, { fingerprint: other.fingerprint, workers: [other.worker], description: other.description })}. ` +
              'Each run uses the registry of the worker that starts it, and its tools and evaluators run only on workers with that registry'
          : `grove: worker ${other.worker} polls task queue "${queue}" without a grove registry (no GrovePlugin, or an older grove): runs it starts run their tools on whichever worker takes each call`,
      );
    },
  });
  fleet.peers = watch.workers;
  let companionFailed: unknown;
  const companionRun = companion.run().catch((err: unknown) => {
    companionFailed = err;
    if (worker.getState() === 'RUNNING') worker.shutdown();
  });
  try {
    // Published before this worker polls, so a worker that sees it polling finds its registry and
    // can say what differs. A convenience for others: a store that fails never fails the worker,
    // and one that is slow holds it up PUBLISH_WAIT_MS at most.
    await publishedOrLate(publishRegistry(opts.store, fleet.registry));
    watch.start();
    await next();
  } finally {
    watch.stop();
    if (companion.getState() === 'RUNNING') companion.shutdown();
    await companionRun;
    fleet.routed = false;
    fleet.peers = undefined;
  }
  if (companionFailed) throw companionFailed;
}

/** How long a worker waits for its registry to be published before it polls anyway. */
const PUBLISH_WAIT_MS = 5_000;

function publishedOrLate(publishing: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, PUBLISH_WAIT_MS)));
  return Promise.race([publishing.then(() => undefined, () => undefined), late]).finally(() => clearTimeout(timer));
}

/**
 * The companion serves activities only, by design: Temporal's warning that it registered no
 * workflows would reach every user's log each time a worker starts, so it is left out there
 * (the worker's logger is the SDK's per-worker one; everything else it says passes through).
 */
function quietAboutWorkflows(worker: Worker): void {
  const holder = worker as unknown as { logger: Logger };
  const inner = holder.logger;
  const quiet: Logger = {
    log: (level, message, meta) => inner.log(level, message, meta),
    trace: (message, meta) => inner.trace(message, meta),
    debug: (message, meta) => inner.debug(message, meta),
    info: (message, meta) => inner.info(message, meta),
    warn: (message, meta) => (message === NO_WORKFLOWS ? undefined : inner.warn(message, meta)),
    error: (message, meta) => inner.error(message, meta),
  };
  Object.defineProperty(holder, 'logger', { value: quiet });
}

const NO_WORKFLOWS = 'No workflows registered, not polling for workflow tasks';
