/**
 * A program that watches a run's model answers being written (docs/streaming.md):
 *
 *   npx tsx examples/streaming/watch-run.ts "Write a haiku about rivers."
 *
 * One process holds a worker (your own `Worker.create` with `GrovePlugin`) and a client; the
 * client's `events` print each answer as it streams, then the run's end. The worker writes the
 * answers to the message store's token channel and the client reads them from the same store
 * (GROVE_STORE_URL, default .grove/store) — in two processes, or on two hosts with PostgreSQL,
 * it works the same. Temporal at TEMPORAL_ADDRESS (default localhost:7233), models at
 * OPENAI_BASE_URL / OPENAI_API_KEY, the model GROVE_MODEL. In a project of your own, import from
 * 'grove-agents/worker' and 'grove-agents/client'.
 */
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { GroveClient } from '../../client';
import { GrovePlugin } from '../../workers';

async function main(): Promise<void> {
  const address = process.env.TEMPORAL_ADDRESS ?? 'localhost:7233';
  const taskQueue = process.env.GROVE_TASK_QUEUE ?? 'grove';
  const prompt = process.argv[2] ?? 'Write a haiku about rivers.';
  Runtime.install({ logger: new DefaultLogger('WARN') });

  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({ connection, taskQueue, plugins: [new GrovePlugin()] });
  const client = new Client({ connection: await Connection.connect({ address }) });
  const grove = new GroveClient(client, taskQueue);

  await worker.runUntil(async () => {
    const handle = await grove.start('generate', { prompt });
    const answers = new Set<string>();
    for await (const event of grove.events(handle.workflowId)) {
      if (event.type === 'token') {
        const answer = `${event.callId}#${event.choice}`; // one stream per call and choice
        if (!answers.has(answer)) process.stdout.write(`[${event.summary ?? 'model call'}]\n`);
        answers.add(answer);
        process.stdout.write(event.delta); // what the model wrote since the last event
        if (event.state !== 'streaming') process.stdout.write(`\n[${event.state}]\n`);
      }
      if (event.type === 'status' && !event.live) console.log(`${handle.workflowId}: ${event.status}`);
    }
  });
  await client.connection.close();
  await connection.close();
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
