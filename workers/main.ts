/**
 * A grove worker process: `npx tsx workers/main.ts` (or `grove worker`).
 *
 * Environment: Temporal connection settings as `temporalSettings` reads them (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_PROFILE..., default the local dev server on GROVE_TEMPORAL_PORT),
 * GROVE_TASK_QUEUE (default `grove`), OPENAI_BASE_URL / OPENAI_API_KEY / GROVE_MODEL,
 * GROVE_STORE_DIR (default `.grove/store`), GROVE_WORKFLOW_BUNDLE (a prebuilt bundle file),
 * GROVE_WORKER_MODULE (a module exporting `tools` / `evaluators` to serve, see worker-module.ts),
 * GROVE_STICKY_QUEUE_TIMEOUT_MS (how long a run waits for this worker's cache before another
 * worker takes over after a crash; Temporal's default 10 s), GROVE_WORKER_IDENTITY (the worker's
 * name in Temporal's list of pollers; default pid@host), GROVE_WORKER_WORKFLOWS=0 (a tool worker:
 * grove's activities, no workflows), GROVE_FLEET_WATCH_MS (how often it looks for workers on its
 * queue whose registries differ; default 60 s).
 * Stops cleanly on SIGINT/SIGTERM: running activities finish or are handed back to the server.
 */
import { Runtime } from '@temporalio/worker';
import { groveWorkerLogger } from './worker-logger';
import { llmConfigFromEnv } from '../activities/llm/llm-config';
import { connectWorker } from '../client/temporal-server/connect';
import { temporalSettings } from '../client/temporal-server/connection-options';
import { createGroveWorker } from './create-worker';
import { loadWorkerModule } from './worker-module';
import { parseIdentity } from '../core/fleet/registry';

export async function runWorkerProcess(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  Runtime.install({ logger: groveWorkerLogger((env.GROVE_LOG_LEVEL as 'WARN') ?? 'WARN') });
  const settings = temporalSettings(env);
  const taskQueue = env.GROVE_TASK_QUEUE ?? 'grove';
  const llm = llmConfigFromEnv(env);
  const extra = env.GROVE_WORKER_MODULE ? loadWorkerModule(env.GROVE_WORKER_MODULE) : {};
  const connection = await connectWorker(settings);
  const worker = await createGroveWorker({
    connection,
    namespace: settings.namespace,
    taskQueue,
    llm,
    tools: extra.tools,
    evaluators: extra.evaluators,
    store: extra.store,
    workflowsPath: extra.workflowsPath,
    workflows: env.GROVE_WORKER_WORKFLOWS !== '0',
    workflowBundle: env.GROVE_WORKFLOW_BUNDLE && env.GROVE_WORKER_WORKFLOWS !== '0' ? { codePath: env.GROVE_WORKFLOW_BUNDLE } : undefined,
    fleet: env.GROVE_FLEET_WATCH_MS ? { watchIntervalMs: Number(env.GROVE_FLEET_WATCH_MS) } : undefined,
    workerOptions: {
      ...(env.GROVE_STICKY_QUEUE_TIMEOUT_MS ? { stickyQueueScheduleToStartTimeout: Number(env.GROVE_STICKY_QUEUE_TIMEOUT_MS) } : {}),
      ...(env.GROVE_WORKER_IDENTITY ? { identity: env.GROVE_WORKER_IDENTITY } : {}),
    },
  });
  const served = [...(extra.tools ?? []).map((t) => t.name), ...(extra.evaluators ?? []).map((e) => e.name)];
  const { worker: name, fingerprint } = parseIdentity(worker.options.identity);
  console.log(
    `grove worker: task queue ${taskQueue} on ${settings.address}/${settings.namespace}, models at ${llm.baseURL}${served.length ? `, serving ${served.join(', ')}` : ''}` +
      `${env.GROVE_WORKER_WORKFLOWS === '0' ? ' (tools only, no workflows)' : ''}; ${name}, registry ${fingerprint} (pid ${process.pid})`,
  );
  await worker.run();
  await connection.close();
}

if (require.main === module) {
  runWorkerProcess().catch((err: Error) => {
    console.error(`grove worker: ${err.message}`);
    process.exit(1);
  });
}
