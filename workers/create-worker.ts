import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { llmConfigFromEnv, type LlmConfig } from '../activities/llm/llm-config';
import { openStore, storeSettingsFromEnv, type StoreSettings } from '../activities/store/open-store';
import type { EvaluatorDefinition } from '../activities/evaluators';
import { createGroveActivities } from '../activities/grove-activities';
import type { AnyToolDefinition } from '../activities/tools';
import type { MessageStore } from '../activities/store/message-store';
import { bundleGroveWorkflows } from './workflow-bundle';

export interface GroveWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  /** Your own workflows file (it should `export * from` grove's `workflows/index.ts` too); default grove's. */
  workflowsPath?: string;
  /** A prebuilt bundle (`{ codePath }` or `{ code }`); bundled on the spot when omitted. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Model endpoint; from the environment when omitted (see `llmConfigFromEnv`). */
  llm?: LlmConfig;
  /**
   * The message store: a store, or its URL / settings (`openStore`); from the environment when
   * omitted (`GROVE_STORE_URL`, default the folder `.grove/store`). It is checked before the
   * worker starts: a store that cannot be reached fails here, in one line.
   */
  store?: MessageStore | StoreSettings | string;
  /** Tools the search agents may call (served as activities on this worker's task queue). */
  tools?: AnyToolDefinition[];
  /** Custom evaluators the search agents may use by name. */
  evaluators?: EvaluatorDefinition[];
  /** More activities to serve beside grove's. */
  activities?: Record<string, (...args: any[]) => Promise<unknown>>;
  /** Anything else Temporal's `WorkerOptions` accepts (concurrency, tuner, identity...). */
  workerOptions?: Partial<WorkerOptions>;
}

/**
 * A worker that serves grove's workflows and its model activities on one task queue.
 *
 * @example
 * const connection = await NativeConnection.connect({ address: 'localhost:7233' });
 * const worker = await createGroveWorker({ connection, taskQueue: 'grove' });
 * await worker.run();
 */
export async function createGroveWorker(opts: GroveWorkerOptions): Promise<Worker> {
  const store = resolveStore(opts.store);
  await store.check();
  const llm = opts.llm ?? llmConfigFromEnv();
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    workflowBundle: opts.workflowBundle ?? (await bundleGroveWorkflows({ workflowsPath: opts.workflowsPath })),
    activities: { ...createGroveActivities({ llm, store, tools: opts.tools, evaluators: opts.evaluators }), ...(opts.activities ?? {}) },
    ...opts.workerOptions,
  });
}

/** A store given as an object, a URL or settings, or else the environment's. */
export function resolveStore(store: GroveWorkerOptions['store']): MessageStore {
  if (store === undefined) return openStore(storeSettingsFromEnv());
  return typeof store === 'string' || !('get' in store) ? openStore(store) : store;
}
