/**
 * A service of your own that runs a grove search inside its own trace (docs/observability.md):
 *
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 OTEL_SERVICE_NAME=checkout npx tsx examples/observability/traced-run.ts
 *
 * One process holds a worker (your own `Worker.create` with `GrovePlugin`) and a client; the
 * request span it opens is the parent of the run's trace: client start → workflow → node
 * expansions → activities → model calls, tool runs and evaluations. Temporal at
 * TEMPORAL_ADDRESS (default localhost:7233), models at OPENAI_BASE_URL / OPENAI_API_KEY. In a
 * project of your own, import from 'grove-agents/worker' and 'grove-agents/client'.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { GroveClient, groveClientInterceptors } from '../../client';
import { GrovePlugin, groveTelemetry, shutdownGroveTelemetry } from '../../workers';
import { multiplicationChecker } from '../evaluators/multiplication-checker';
import { exampleTools } from '../tools';

async function main(): Promise<void> {
  const telemetry = groveTelemetry(); // the OTEL_* variables; undefined when they export nothing
  if (!telemetry?.tracer) throw new Error('set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://localhost:4318) to export traces');
  const address = process.env.TEMPORAL_ADDRESS ?? 'localhost:7233';
  const taskQueue = process.env.GROVE_TASK_QUEUE ?? 'grove';
  Runtime.install({ logger: new DefaultLogger('WARN') });

  // The worker: GrovePlugin reads the same variables, adds the tracing interceptors and exporter sinks.
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    plugins: [new GrovePlugin({ tools: exampleTools, evaluators: [multiplicationChecker] })],
  });
  // The client: its interceptors start each run's trace and pass it to the workflow in the run's headers.
  const client = new Client({ connection: await Connection.connect({ address }), interceptors: { workflow: groveClientInterceptors() } });
  const grove = new GroveClient(client, taskQueue);

  const input = JSON.parse(readFileSync(join(__dirname, '..', 'inputs', 'multiplication-mcts.json'), 'utf8'));
  // Your request's span (here grove's tracer; with your own OpenTelemetry SDK, any active span) is the run's parent.
  await telemetry.tracer.startActiveSpan('handle checkout request', async (request) => {
    const result = await worker.runUntil(grove.run('agent', input));
    console.log(`${result.workflowId}: ${result.isSolution ? 'solved' : 'not solved'} in ${result.counters.llmCalls} model calls; trace ${request.spanContext().traceId}`);
    request.end();
  });
  await shutdownGroveTelemetry(); // export what is still batched before the process exits
  await client.connection.close();
  await connection.close();
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
