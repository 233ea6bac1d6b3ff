import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { quietRuntime } from './quiet-runtime';
import { randomUUID } from 'node:crypto';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import type { MessageStore } from '../../activities/store/message-store';
import { llmConfigFromEnv, type LlmConfig } from '../../activities/llm/llm-config';
import { GroveClient } from '../../client/grove-client';
import type { OperatorPolicyInput } from '../../core/policy/operator-policy';
import { createGroveWorker, type GroveWorkerOptions } from '../../workers/create-worker';
import { multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';

export interface TestEnv {
  address: string;
  client: Client;
  nativeConnection: NativeConnection;
  bundlePath: string;
  close(): Promise<void>;
}

/** Connects to the test run's shared dev server (started in globalSetup). */
export async function openTestEnv(): Promise<TestEnv> {
  quietRuntime();
  const address = process.env.GROVE_TEST_TEMPORAL_ADDRESS;
  const bundlePath = process.env.GROVE_TEST_WORKFLOW_BUNDLE;
  if (!address || !bundlePath) throw new Error('integration tests need the jest globalSetup (run them with `npm test`)');
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  return {
    address,
    client: new Client({ connection }),
    nativeConnection,
    bundlePath,
    async close() {
      await connection.close();
      await nativeConnection.close();
    },
  };
}

/** A task queue no other test uses. */
export function uniqueTaskQueue(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export function testLlmConfig(baseURL: string, overrides: Partial<LlmConfig> = {}): LlmConfig {
  return llmConfigFromEnv({}, { baseURL, apiKey: 'test-key', defaultModel: 'assistant', heartbeatIntervalMs: 200, sendCallKey: true, ...overrides });
}

/** A grove worker on its own task queue, against the shared server and bundle. */
export async function testWorker(
  env: TestEnv,
  opts: { taskQueue: string; llm: LlmConfig; store?: MessageStore } & Partial<GroveWorkerOptions>,
): Promise<Worker> {
  return createGroveWorker({
    connection: env.nativeConnection,
    workflowBundle: { codePath: env.bundlePath },
    store: opts.store ?? new MemoryMessageStore(),
    tools: exampleTools,
    evaluators: [multiplicationChecker],
    ...opts,
  });
}

export function groveClient(env: TestEnv, taskQueue: string, policy?: OperatorPolicyInput): GroveClient {
  return new GroveClient(env.client, taskQueue, undefined, policy);
}
