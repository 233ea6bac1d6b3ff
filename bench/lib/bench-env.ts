import type { AnyToolDefinition } from '../../activities/tools/define-tool';
import type { EvaluatorDefinition } from '../../activities/evaluators';
import type { McpServers } from '../../activities/mcp/mcp-servers';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import type { MessageStore } from '../../activities/store/message-store';
import { openStore } from '../../activities/store/open-store';
import { startLocalPostgres, type LocalPostgres } from '../../client/local/postgres-server';
import { llmConfigFromEnv, type LlmConfig } from '../../activities/llm/llm-config';
import { GroveClient } from '../../client/grove-client';
import { startDevServer, type DevServer } from '../../client/temporal-server/dev-server';
import { freePort } from '../../client/temporal-server/ports';
import { multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';
import { startModelServer, type ModelServer } from '../../model-server';
import { createGroveWorker } from '../../workers/create-worker';
import { writeWorkflowBundle } from '../../workers/workflow-bundle';
import { benchEvaluators, benchPolicies } from './bench-models';
import type { GroveTelemetry } from '../../activities/telemetry/grove-telemetry';

/**
 * One Temporal dev server (or TEMPORAL_ADDRESS), one scripted model server and one workflow
 * bundle for a whole benchmark run; workers on fresh task queues per measurement.
 */
export interface BenchEnv {
  quick: boolean;
  address: string;
  client: Client;
  nativeConnection: NativeConnection;
  bundlePath: string;
  model: ModelServer;
  dir: string;
  /** A local PostgreSQL server, the networked message store (started on first use). */
  postgresUrl(): Promise<string>;
  llm(overrides?: Partial<LlmConfig>): LlmConfig;
  worker(
    taskQueue: string,
    overrides?: { llm?: Partial<LlmConfig>; maxConcurrentActivities?: number; store?: BenchStoreKind; tools?: AnyToolDefinition[]; evaluators?: EvaluatorDefinition[]; mcpServers?: McpServers; bundlePath?: string; telemetry?: GroveTelemetry | false },
  ): Promise<Worker>;
  grove(taskQueue: string): GroveClient;
  close(): Promise<void>;
}

/** Where a bench worker keeps messages: in memory, a folder (one host), or PostgreSQL (every host). */
export type BenchStoreKind = 'memory' | 'folder' | 'postgres';

let queues = 0;
export const benchQueue = (name: string) => `bench-${name}-${process.pid}-${++queues}`;

export async function openBenchEnv(opts: { quick: boolean; log: (line: string) => void }): Promise<BenchEnv> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const dir = mkdtempSync(join(tmpdir(), 'grove-bench-'));
  const [server, bundle, model] = await Promise.all([
    process.env.TEMPORAL_ADDRESS
      ? Promise.resolve<DevServer | undefined>(undefined)
      : freePort().then((port) => startDevServer({ port, uiPort: false, log: opts.log })),
    writeWorkflowBundle(join(dir, 'bundle.js'), { workflowsPath: join(__dirname, '..', 'workflows', 'index.ts') }),
    startModelServer({ policies: benchPolicies }),
  ]);
  const address = server?.address ?? process.env.TEMPORAL_ADDRESS!;
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  const client = new Client({ connection });
  const llm = (overrides: Partial<LlmConfig> = {}) =>
    llmConfigFromEnv({}, { baseURL: model.baseURL, apiKey: 'bench', defaultModel: 'multiplier-judge', sendCallKey: true, ...overrides });
  let postgres: Promise<LocalPostgres> | undefined;
  const postgresUrl = async () => (await (postgres ??= freePort().then((port) => startLocalPostgres({ dir: join(dir, 'postgres'), port, log: opts.log })))).url;
  const stores: MessageStore[] = [];
  const store = async (kind: BenchStoreKind = 'memory'): Promise<MessageStore> => {
    const s = kind === 'memory' ? new MemoryMessageStore() : openStore(kind === 'folder' ? mkdtempSync(join(dir, 'store-')) : await postgresUrl());
    await s.check();
    stores.push(s);
    return s;
  };
  chmodSync(dir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach its folder inside
  return {
    quick: opts.quick,
    address,
    client,
    nativeConnection,
    bundlePath: bundle.codePath,
    model,
    dir,
    llm,
    postgresUrl,
    worker: async (taskQueue, overrides = {}) =>
      createGroveWorker({
        connection: nativeConnection,
        taskQueue,
        workflowBundle: { codePath: overrides.bundlePath ?? bundle.codePath },
        telemetry: overrides.telemetry ?? false,
        llm: llm(overrides.llm),
        store: await store(overrides.store),
        tools: overrides.tools ?? exampleTools,
        mcpServers: overrides.mcpServers,
        evaluators: overrides.evaluators ?? [multiplicationChecker, ...benchEvaluators],
        workerOptions: overrides.maxConcurrentActivities ? { maxConcurrentActivityTaskExecutions: overrides.maxConcurrentActivities } : undefined,
      }),
    grove: (taskQueue) => new GroveClient(client, taskQueue),
    async close() {
      await connection.close();
      await nativeConnection.close();
      await model.close();
      await Promise.all(stores.map((s) => s.close()));
      await (await postgres)?.stop();
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Environment for a worker process (`workers/main.ts`) on `taskQueue` against this bench's servers. */
export function workerProcessEnv(env: BenchEnv, taskQueue: string, storeDir: string): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: env.address,
    GROVE_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: env.model.baseURL,
    OPENAI_API_KEY: 'bench',
    GROVE_SEND_CALL_KEY: '1',
    GROVE_WORKFLOW_BUNDLE: env.bundlePath,
    GROVE_STORE_DIR: storeDir,
    GROVE_WORKER_MODULE: join(__dirname, '..', '..', 'examples', 'worker-module.ts'),
  };
}

/** Size (bytes) and length (events) of a run's history, as the server counts them. */
export async function historyOf(client: Client, workflowId: string): Promise<{ bytes: number; events: number }> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const info = description.raw.workflowExecutionInfo!;
  return { bytes: Number(info.historySizeBytes ?? 0), events: Number(info.historyLength ?? 0) };
}
