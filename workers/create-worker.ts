import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { join } from 'node:path';
import { llmConfigFromEnv, type LlmConfig } from '../activities/llm/llm-config';
import { FileMessageStore } from '../activities/store/file-message-store';
import type { EvaluatorDefinition } from '../activities/evaluators';
import { createGroveActivities } from '../activities/grove-activities';
import type { AnyToolDefinition } from '../activities/tools';
import type { MessageStore } from '../activities/store/message-store';
import { groveHome } from '../runtime/paths';
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
  /** Message store; a folder (`GROVE_STORE_DIR`, default `.grove/store`) when omitted. */
  store?: MessageStore;
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
  const store = opts.store ?? new FileMessageStore(process.env.GROVE_STORE_DIR ?? join(groveHome(), 'store'));
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
