/**
 * A grove worker process: `npx tsx workers/main.ts` (or `grove worker`).
 *
 * Environment: Temporal connection settings as `temporalSettings` reads them (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_PROFILE..., default the local dev server on GROVE_TEMPORAL_PORT),
 * GROVE_TASK_QUEUE (default `grove`), OPENAI_BASE_URL / OPENAI_API_KEY / GROVE_MODEL,
 * GROVE_STORE_DIR (default `.grove/store`), GROVE_WORKFLOW_BUNDLE (a prebuilt bundle file),
 * GROVE_WORKER_MODULE (a module exporting `tools` / `evaluators` / `mcpServers` to serve, see
 * worker-module.ts), GROVE_MCP_CONFIG (a JSON file of MCP servers whose tools to serve, docs/mcp.md),
 * GROVE_STICKY_QUEUE_TIMEOUT_MS (how long a run waits for this worker's cache before another
 * worker takes over after a crash; Temporal's default 10 s), GROVE_HEARTBEAT_THROTTLE_MS (the
 * longest a call's heartbeats are held back, hence how soon it hears of a cancellation; grove's
 * default 2 s), GROVE_WORKER_IDENTITY (the worker's
 * name in Temporal's list of pollers; default pid@host), GROVE_WORKER_WORKFLOWS=0 (a tool worker:
 * grove's activities, no workflows), GROVE_FLEET_WATCH_MS (how often it looks for workers on its
 * queue whose registries differ; default 60 s), the OpenTelemetry variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME...; docs/observability.md).
 * Stops cleanly on SIGINT/SIGTERM: running activities finish or are handed back to the server.
 */
import { Runtime } from '@temporalio/worker';
import { groveWorkerLogger } from './worker-logger';
import { llmConfigFromEnv } from '../activities/llm/llm-config';
import { connectWorker } from '../temporal/connect';
import { temporalSettings } from '../temporal/connection-options';
import { createGroveWorker } from './create-worker';
import { loadWorkerModule, workerMcpServers } from './worker-module';
import type { McpServersConfig } from '../activities/mcp/mcp-config';
import { McpServers } from '../activities/mcp/mcp-servers';
import { describeSandbox } from '../activities/sandbox/sandbox-layers';
import { groveTelemetry, shutdownGroveTelemetry } from '../activities/telemetry/telemetry-registry';
import { describeTelemetry } from '../activities/telemetry/otel-settings';
import { parseIdentity } from '../core/fleet/registry';

/** Runs a worker until it is told to stop; `given.mcpServers` (the command line's) join those of GROVE_MCP_CONFIG and the worker module. */
export async function runWorkerProcess(env: NodeJS.ProcessEnv = process.env, given: { mcpServers?: McpServersConfig } = {}): Promise<void> {
  Runtime.install({ logger: groveWorkerLogger((env.GROVE_LOG_LEVEL as 'WARN') ?? 'WARN') });
  const settings = temporalSettings(env);
  const taskQueue = env.GROVE_TASK_QUEUE ?? 'grove';
  const llm = llmConfigFromEnv(env);
  const throttle = positiveMs(env, 'GROVE_HEARTBEAT_THROTTLE_MS');
  const extra = env.GROVE_WORKER_MODULE ? loadWorkerModule(env.GROVE_WORKER_MODULE) : {};
  const telemetry = groveTelemetry(env);
  const mcp = new McpServers(workerMcpServers(env, extra, given.mcpServers));
  const toolsOnly = env.GROVE_WORKER_WORKFLOWS === '0';
  try {
    // Started before the worker connects: a server that cannot start stops it here, naming the server.
    const mcpTools = await mcp.tools();
    const connection = await connectWorker(settings);
    const worker = await createGroveWorker({
      telemetry: telemetry ?? false,
      connection,
      namespace: settings.namespace,
      taskQueue,
      llm,
      tools: extra.tools,
      mcpServers: mcp,
      evaluators: extra.evaluators,
      store: extra.store,
      workflowsPath: extra.workflowsPath,
      workflows: !toolsOnly,
      workflowBundle: env.GROVE_WORKFLOW_BUNDLE && !toolsOnly ? { codePath: env.GROVE_WORKFLOW_BUNDLE } : undefined,
      fleet: env.GROVE_FLEET_WATCH_MS ? { watchIntervalMs: Number(env.GROVE_FLEET_WATCH_MS) } : undefined,
      workerOptions: {
        ...(env.GROVE_STICKY_QUEUE_TIMEOUT_MS ? { stickyQueueScheduleToStartTimeout: Number(env.GROVE_STICKY_QUEUE_TIMEOUT_MS) } : {}),
        ...(env.GROVE_WORKER_IDENTITY ? { identity: env.GROVE_WORKER_IDENTITY } : {}),
        ...(throttle !== undefined ? { maxHeartbeatThrottleInterval: throttle } : {}),
      },
    });
    if (telemetry) console.log(`grove worker: ${describeTelemetry(telemetry.settings)}`);
    const served = [...(extra.tools ?? []), ...mcpTools, ...(extra.evaluators ?? [])].map((t) => t.name);
    const { worker: name, fingerprint } = parseIdentity(worker.options.identity);
    console.log(
      `grove worker: task queue ${taskQueue} on ${settings.address}/${settings.namespace}, models at ${llm.baseURL}${served.length ? `, serving ${served.join(', ')}` : ''}` +
        `${toolsOnly ? ' (tools only, no workflows)' : ''}; ${name}, registry ${fingerprint} (pid ${process.pid})`,
    );
    console.log(`grove worker: ${describeSandbox()}`);
    await worker.run();
    await connection.close();
  } finally {
    await mcp.close();
    await shutdownGroveTelemetry();
  }
}

/** A variable that holds a whole number of milliseconds above 0, or is unset; anything else stops the worker, naming it. */
function positiveMs(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) throw new Error(`${name}=${raw} is invalid: a whole number of milliseconds above 0`);
  return ms;
}

if (require.main === module) {
  runWorkerProcess().catch((err: Error) => {
    console.error(`grove worker: ${err.message}`);
    process.exit(1);
  });
}
