import { Runtime, type Worker, type WorkerOptions } from '@temporalio/worker';
import { groveWorkerLogger } from '../../workers/worker-logger';
import { join } from 'node:path';
import { moduleFile } from '../../runtime/paths';
import type { LlmConfig } from '../../activities/llm/llm-config';
import type { StoreSettings } from '../../activities/store/open-store';
import { createGroveWorker } from '../../workers/create-worker';
import { groveFleetState } from '../../activities/grove-activities';
import { loadWorkerModule, workerMcpServers, type WorkerModule } from '../../workers/worker-module';
import type { McpServersConfig } from '../../activities/mcp/mcp-config';
import { McpServers } from '../../activities/mcp/mcp-servers';
import { connectWorker } from '../../temporal/connect';
import type { TemporalConnectionSettings } from '../../temporal/connection-options';

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
  /** MCP servers whose tools to serve too (besides GROVE_MCP_CONFIG's and the module's). */
  mcpServers?: McpServersConfig;
  /** A workflow bundle made once for several workers (default `GROVE_WORKFLOW_BUNDLE`, else the prebuilt one). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** More of Temporal's worker options (the demo's short sticky-queue timeout, an identity). */
  workerOptions?: Partial<WorkerOptions>;
}) {
  const extra = opts.module ?? loadWorkerModule(process.env.GROVE_WORKER_MODULE ?? DEFAULT_WORKER_MODULE);
  const mcp = new McpServers(workerMcpServers(process.env, extra, opts.mcpServers));
  try {
    const mcpTools = (await mcp.tools()).map((t) => t.name);
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
      mcpServers: mcp,
      evaluators: extra.evaluators,
      store: opts.store,
      workflowBundle: opts.workflowBundle ?? (process.env.GROVE_WORKFLOW_BUNDLE ? { codePath: process.env.GROVE_WORKFLOW_BUNDLE } : undefined),
      workerOptions: opts.workerOptions,
    });
    const running = worker.run();
    return {
      worker,
      /** The names of the MCP tools the worker serves. */
      mcpTools,
      /** The worker's registry (its tools, MCP tools included, and evaluators by name and definition). */
      registry: await groveFleetState({ tools: extra.tools, evaluators: extra.evaluators, mcp }).settle(),
      async stop() {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await connection.close();
        await mcp.close();
      },
    };
  } catch (err) {
    await mcp.close();
    throw err;
  }
}
