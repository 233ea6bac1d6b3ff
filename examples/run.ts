/**
 * Runs one of the examples on a local stack (dev server, worker serving the examples, and the
 * scripted model server unless OPENAI_BASE_URL / OPENAI_API_KEY are set), then prints its
 * result and sample tree.
 *
 *   npm run example -- color-game [seed]
 *   npm run example -- llm-guesser 33 [seed]
 *   npm run example -- food-extraction
 */
import { join } from 'node:path';
import { connectClient } from '../temporal/connect';
import { ensureModel } from '../client/local/ensure-model';
import { ensureTemporal } from '../client/local/ensure-temporal';
import { runUrl } from '../temporal/connection-options';
import { startLocalWorker } from '../client/local/local-worker';

const EXAMPLES: Record<string, { workflow: string; args: (argv: string[], model?: string) => unknown[] }> = {
  'color-game': { workflow: 'colorGame', args: ([seed], model) => [{ seed: seed ? Number(seed) : undefined, model }] },
  'llm-guesser': { workflow: 'llmGuesser', args: ([n = '33', seed], model) => [Number(n), { seed: seed ? Number(seed) : undefined, model }] },
  'food-extraction': { workflow: 'foodExtraction', args: (_argv, model) => [{ model }] },
};

async function main(): Promise<void> {
  const [name, ...argv] = process.argv.slice(2);
  const example = name ? EXAMPLES[name] : undefined;
  if (!example) {
    console.error(`usage: npm run example -- <${Object.keys(EXAMPLES).join(' | ')}> [args]`);
    process.exit(2);
  }
  const log = (line: string) => console.log(line);
  const temporal = await ensureTemporal({ log });
  const model = await ensureModel({ log, scripted: true });
  const taskQueue = 'grove-examples';
  const worker = await startLocalWorker({ settings: temporal.settings, llm: model.llm, taskQueue, workflowsPath: join(__dirname, 'all-workflows.ts') });
  const client = await connectClient(temporal.settings);
  try {
    const workflowId = `${name}-${Date.now().toString(36)}`;
    // Scripted players stand in for models offline; with a real endpoint the example uses its default model.
    const result = await client.workflow.execute(example.workflow, { taskQueue, workflowId, args: example.args(argv, model.scripted ? undefined : model.llm.defaultModel) });
    console.log(`\noutput: ${JSON.stringify(result.output)}  (success: ${result.success}, ${result.calls} samples, ${result.retries} retries)\n`);
    console.log(result.treeText);
    const link = runUrl(temporal.settings, workflowId);
    if (link) console.log(`\nTemporal UI: ${link}`);
  } finally {
    await client.connection.close();
    await worker.stop();
    await model.stop();
    await temporal.stop();
  }
}

main().catch((err: Error) => {
  console.error(`example failed: ${err.message}`);
  process.exit(1);
});
