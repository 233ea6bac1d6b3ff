import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryMessageStore } from '../../activities/store/message-store';
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
  llm(overrides?: Partial<LlmConfig>): LlmConfig;
  worker(taskQueue: string, overrides?: { llm?: Partial<LlmConfig>; maxConcurrentActivities?: number }): Promise<Worker>;
  grove(taskQueue: string): GroveClient;
  close(): Promise<void>;
}

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
    llmConfigFromEnv({}, { baseURL: model.baseURL, apiKey: 'bench', defaultModel: 'multiplier-judge', ...overrides });
  return {
    quick: opts.quick,
    address,
    client,
    nativeConnection,
    bundlePath: bundle.codePath,
    model,
    dir,
    llm,
    worker: (taskQueue, overrides = {}) =>
      createGroveWorker({
        connection: nativeConnection,
        taskQueue,
        workflowBundle: { codePath: bundle.codePath },
        llm: llm(overrides.llm),
        store: new MemoryMessageStore(),
        tools: exampleTools,
        evaluators: [multiplicationChecker, ...benchEvaluators],
        workerOptions: overrides.maxConcurrentActivities ? { maxConcurrentActivityTaskExecutions: overrides.maxConcurrentActivities } : undefined,
      }),
    grove: (taskQueue) => new GroveClient(client, taskQueue),
    async close() {
      await connection.close();
      await nativeConnection.close();
      await model.close();
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
