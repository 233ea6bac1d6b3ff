import { Runtime, type Worker } from '@temporalio/worker';
import { groveWorkerLogger } from '../../workers/worker-logger';
import { join } from 'node:path';
import { moduleFile } from '../../runtime/paths';
import type { LlmConfig } from '../../activities/llm/llm-config';
import type { StoreSettings } from '../../activities/store/open-store';
import { createGroveWorker } from '../../workers/create-worker';
import { groveFleetState } from '../../activities/grove-activities';
import { loadWorkerModule, type WorkerModule } from '../../workers/worker-module';
import { connectWorker } from '../temporal-server/connect';
import type { TemporalConnectionSettings } from '../temporal-server/connection-options';

let runtimeInstalled = false;

/** The module `grove dev` and the demo serve by default: the example tools and evaluator. */
export const DEFAULT_WORKER_MODULE = moduleFile(join(__dirname, '..', '..', 'examples', 'worker-module'));

/**
 * A grove worker inside this process (for `grove dev` and the demo), running until `stop`.
 */
export async function startLocalWorker(opts: {
  settings: TemporalConnectionSettings;
  llm: LlmConfig;
  taskQueue: string;
  workflowsPath?: string;
  /** Tools and evaluators to serve; default the examples' (`examples/worker-module.ts`), or `GROVE_WORKER_MODULE`. */
  module?: WorkerModule;
  /** The message store; from the environment when omitted. */
  store?: StoreSettings;
}) {
  const extra = opts.module ?? loadWorkerModule(process.env.GROVE_WORKER_MODULE ?? DEFAULT_WORKER_MODULE);
  if (!runtimeInstalled) {
    Runtime.install({ logger: groveWorkerLogger('WARN') });
    runtimeInstalled = true;
  }
  const connection = await connectWorker(opts.settings);
  const worker: Worker = await createGroveWorker({
    connection,
    namespace: opts.settings.namespace,
    taskQueue: opts.taskQueue,
    llm: opts.llm,
    workflowsPath: opts.workflowsPath,
    tools: extra.tools,
    evaluators: extra.evaluators,
    store: opts.store,
    workflowBundle: process.env.GROVE_WORKFLOW_BUNDLE ? { codePath: process.env.GROVE_WORKFLOW_BUNDLE } : undefined,
  });
  const running = worker.run();
  return {
    worker,
    /** The worker's registry (its tools and evaluators by name and definition). */
    registry: groveFleetState({ tools: extra.tools, evaluators: extra.evaluators }).registry,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
