import type { WorkflowService } from '@temporalio/client';
import type { RegistryDescription } from '../../core/fleet/registry';
import { queueWorkers, type QueueWorker } from './queue-workers';

/** A worker on the queue, with its registry's description when the store has it. */
export type SeenWorker = QueueWorker & { description?: RegistryDescription };

export interface QueueWatch {
  /** The queue's workers now (other than the ignored ones), with their registries. */
  workers(): Promise<SeenWorker[]>;
  /** Looks once, calling `onNew` for each worker not seen before (by `key`). */
  look(): Promise<void>;
  /** Looks now and then every `intervalMs` until `stop`; a failed look is skipped. */
  start(): void;
  stop(): void;
}

/**
 * Watches the workers polling a task queue (Temporal lists its pollers by identity; grove's
 * workers carry their registry fingerprint in it): `onNew` hears of each one once — a worker by
 * `key` (default its fingerprint, so a registry is reported once however many workers share it).
 * `grove dev` and every grove worker use it to notice workers beside them whose tools differ.
 *
 * @example
 * const watch = watchQueue({ service, namespace: 'default', queue: 'grove', describe: (fp) => readRegistry(store, fp), onNew: (w) => console.log(w.worker) });
 * watch.start();
 */
export function watchQueue(opts: {
  service: WorkflowService;
  namespace: string;
  queue: string;
  describe: (fingerprint: string) => Promise<RegistryDescription | undefined>;
  onNew: (worker: SeenWorker) => void | Promise<void>;
  ignore?: (worker: QueueWorker) => boolean;
  key?: (worker: QueueWorker) => string;
  intervalMs?: number;
}): QueueWatch {
  const seen = new Set<string>();
  const key = opts.key ?? ((w: QueueWorker) => w.fingerprint ?? `worker ${w.worker}`);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const workers = async (): Promise<SeenWorker[]> => {
    const all = (await queueWorkers(opts.service, opts.namespace, opts.queue)).filter((w) => !opts.ignore?.(w));
    return Promise.all(all.map(async (w) => ({ ...w, description: w.fingerprint ? await opts.describe(w.fingerprint).catch(() => undefined) : undefined })));
  };
  const look = async () => {
    for (const worker of await workers()) {
      if (seen.has(key(worker))) continue;
      seen.add(key(worker));
      await opts.onNew(worker);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void look().catch(() => {}).finally(schedule), opts.intervalMs ?? 60_000);
    timer.unref();
  };
  return {
    workers,
    look,
    start() {
      void look().catch(() => {}).finally(schedule);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
