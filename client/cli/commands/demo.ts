import { GroveClient } from '../../grove-client';
import { connectClient } from '../../temporal-server/connect';
import { ensureModel } from '../../local/ensure-model';
import { ensureTemporal, runUrl } from '../../local/ensure-temporal';
import { startLocalWorker } from '../../local/local-worker';
import { parseCommandArgs } from '../usage-error';

export const DEMO_HELP = `grove demo [--keep | --exit]
  Starts a local Temporal dev server (or uses TEMPORAL_ADDRESS), a worker and — without
  OPENAI_BASE_URL / OPENAI_API_KEY — grove's scripted model server, then runs a durable
  generate workflow and prints the answer and where to see the run in the Temporal UI.
  With a terminal it stays up (so the UI stays reachable) until Ctrl-C; --exit stops at once.`;

export async function demoCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('demo', args, { keep: { type: 'boolean' }, exit: { type: 'boolean' } });
  const taskQueue = `grove-demo`;
  const temporal = await ensureTemporal({ log: io.out });
  const model = await ensureModel({ log: io.out });
  const worker = await startLocalWorker({ settings: temporal.settings, llm: model.llm, taskQueue });
  const grove = new GroveClient(await connectClient(temporal.settings), taskQueue);
  try {
    const prompt = 'Say hi to grove, a library for durable LLM tree search!';
    io.out(`\n> ${prompt}`);
    const result = await grove.run('generate', { prompt });
    io.out(result.output ?? '');
    io.out(`\nworkflow ${result.workflowId} (${result.usage.totalTokens} tokens, model ${result.model})`);
    const link = runUrl(temporal.uiUrl, temporal.settings.namespace, result.workflowId);
    if (link) io.out(`Temporal UI: ${link}`);
    const keep = values.keep || (!values.exit && process.stdin.isTTY);
    if (keep) {
      io.out('\nThe dev server, worker and UI stay up; Ctrl-C stops them.');
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
  } finally {
    await grove.close();
    await worker.stop();
    await model.stop();
    await temporal.stop();
  }
}
