/**
 * A worker of your own that serves an MCP server's tools beside its own (docs/mcp.md):
 *
 *   npx tsx examples/mcp/worker.ts
 *
 * Temporal at TEMPORAL_ADDRESS (default localhost:7233), task queue GROVE_TASK_QUEUE (default
 * grove), models at OPENAI_BASE_URL / OPENAI_API_KEY. In a project of your own, import from
 * 'grove-agents/worker' and 'grove-agents/activities'.
 */
import { join } from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { GrovePlugin } from '../../workers';
import { finalAnswer } from '../tools/final-answer';

async function main(): Promise<void> {
  const taskQueue = process.env.GROVE_TASK_QUEUE ?? 'grove';
  const plugin = new GrovePlugin({
    tools: [finalAnswer],
    mcpServers: {
      // Started once by this worker, over stdio; its tools become calc__<tool>.
      calc: {
        command: process.execPath,
        args: ['-r', 'tsx/cjs', join(__dirname, 'calculator-server.ts')],
        tools: ['multiply'], // serve only these
        timeoutMs: 10_000, // a call that takes longer fails (GroveMcpTimeout) and is retried
      },
    },
  });
  await plugin.ready(); // starts the server and lists its tools now: a server that cannot start stops us here
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233' });
  const worker = await Worker.create({ connection, taskQueue, plugins: [plugin] });
  const served = (await plugin.mcp!.tools()).map((t) => t.name);
  console.log(`worker on ${taskQueue}: serving final_answer, ${served.join(', ')}`);
  await worker.run(); // until SIGINT/SIGTERM; the MCP server is stopped with it
  await connection.close();
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
