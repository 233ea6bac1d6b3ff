import type { LlmConfig } from '../../activities/llm/llm-config';
import type { OperatorPolicyInput } from '../../core/policy/operator-policy';
import { startModelServer, type ModelServer, type ModelServerOptions } from '../../model-server';
import { openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from './temporal-env';

export interface IntegrationSuite {
  readonly env: TestEnv;
  readonly model: ModelServer;
  /** Runs `fn` with a grove worker (example tools and evaluators included) on a fresh task queue. */
  withWorker<T>(fn: (taskQueue: string) => Promise<T>, llm?: Partial<LlmConfig>, policy?: OperatorPolicyInput): Promise<T>;
}

/**
 * The common frame of an integration test file: the shared dev server, a scripted model server
 * of its own, and workers on fresh task queues.
 *
 * @example
 * const suite = integrationSuite('airetry');
 * test('...', () => suite.withWorker((tq) => groveClient(suite.env, tq).run('generate', { prompt: 'hi' })));
 */
export function integrationSuite(prefix: string, modelOptions: ModelServerOptions = {}): IntegrationSuite {
  let env: TestEnv | undefined;
  let model: ModelServer | undefined;
  beforeAll(async () => {
    env = await openTestEnv();
    model = await startModelServer(modelOptions);
  });
  afterAll(async () => {
    await model?.close();
    await env?.close();
  });
  return {
    get env() {
      return env!;
    },
    get model() {
      return model!;
    },
    async withWorker(fn, llm = {}, policy) {
      const taskQueue = uniqueTaskQueue(prefix);
      const worker = await testWorker(env!, { taskQueue, llm: testLlmConfig(model!.baseURL, llm), policy });
      return worker.runUntil(fn(taskQueue));
    },
  };
}
