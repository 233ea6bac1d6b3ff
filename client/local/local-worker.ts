import { DefaultLogger, Runtime, type Worker } from '@temporalio/worker';
import type { LlmConfig } from '../../activities/llm/llm-config';
import { createGroveWorker } from '../../workers/create-worker';
import { connectWorker } from '../temporal-server/connect';
import type { TemporalConnectionSettings } from '../temporal-server/connection-options';

let runtimeInstalled = false;

/**
 * A grove worker inside this process (for `grove dev` and the demo), running until `stop`.
 */
export async function startLocalWorker(opts: { settings: TemporalConnectionSettings; llm: LlmConfig; taskQueue: string; workflowsPath?: string }) {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const connection = await connectWorker(opts.settings);
  const worker: Worker = await createGroveWorker({
    connection,
    namespace: opts.settings.namespace,
    taskQueue: opts.taskQueue,
    llm: opts.llm,
    workflowsPath: opts.workflowsPath,
    workflowBundle: process.env.GROVE_WORKFLOW_BUNDLE ? { codePath: process.env.GROVE_WORKFLOW_BUNDLE } : undefined,
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
