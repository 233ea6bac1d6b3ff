import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { LlmConfig } from '../activities/llm/llm-config';
import type { EvaluatorDefinition } from '../activities/evaluators';
import type { AnyToolDefinition } from '../activities/tools';
import type { McpServersInput } from '../activities/mcp/mcp-config';
import type { McpServers } from '../activities/mcp/mcp-servers';
import type { MessageStore } from '../activities/store/message-store';
import type { StoreSettings } from '../activities/store/open-store';
import { GrovePlugin } from './grove-plugin';
import type { FleetOptions } from './fleet';
import type { OperatorPolicyInput } from '../core/policy/operator-policy';
import type { GroveTelemetry } from '../activities/telemetry/grove-telemetry';

export interface GroveWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  /** Your own workflows file (it should `export * from 'grove-agents/workflows'` too); default grove's. */
  workflowsPath?: string;
  /** A prebuilt bundle (`{ codePath }` or `{ code }`); grove's own prebuilt bundle when omitted. */
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
  /** MCP servers whose tools this worker serves too (`<server>__<tool>`); started before the worker exists. See `GrovePluginOptions.mcpServers`. */
  mcpServers?: McpServersInput | McpServers;
  /** Custom evaluators the search agents may use by name. */
  evaluators?: EvaluatorDefinition[];
  /** What one run may do; `GROVE_POLICY_FILE` or safe defaults when omitted. */
  policy?: OperatorPolicyInput;
  /** Traces and metrics by OpenTelemetry; from the `OTEL_*` variables when omitted, `false` for none (see `GrovePluginOptions`). */
  telemetry?: GroveTelemetry | false;
  /** How the worker reports other workers on its task queue whose tools differ (default: its logger). */
  fleet?: FleetOptions;
  /** `false`: a tool worker, serving grove's activities without running workflows (default true). */
  workflows?: boolean;
  /** More activities to serve beside grove's. */
  activities?: Record<string, (...args: any[]) => Promise<unknown>>;
  /** Anything else Temporal's `WorkerOptions` accepts (concurrency, tuner, identity...). */
  workerOptions?: Partial<WorkerOptions>;
}

/**
 * A worker that serves grove's workflows and activities on one task queue: a thin wrapper over
 * `Worker.create` with a `GrovePlugin`, that checks the store before the worker exists.
 *
 * @example
 * const connection = await NativeConnection.connect({ address: 'localhost:7233' });
 * const worker = await createGroveWorker({ connection, taskQueue: 'grove' });
 * await worker.run();
 */
export async function createGroveWorker(opts: GroveWorkerOptions): Promise<Worker> {
  const plugin = new GrovePlugin({ store: opts.store, llm: opts.llm, tools: opts.tools, mcpServers: opts.mcpServers, evaluators: opts.evaluators, policy: opts.policy, telemetry: opts.telemetry, fleet: opts.fleet, workflows: opts.workflows });
  await plugin.store.check();
  try {
    await plugin.ready();
    return await Worker.create({
      connection: opts.connection,
      namespace: opts.namespace ?? 'default',
      taskQueue: opts.taskQueue,
      workflowsPath: opts.workflowsPath,
      workflowBundle: opts.workflowBundle,
      activities: opts.activities ?? {},
      plugins: [plugin],
      ...opts.workerOptions,
    });
  } catch (err) {
    // No worker will run to stop the servers the plugin started.
    if (plugin.mcp && plugin.mcp !== opts.mcpServers) await plugin.mcp.close();
    throw err;
  }
}
