import { formatCallTree } from '../../../core/airetry/format-call-tree';
import type { ConversationDelta } from '../../../core/conversation/delta';
import type { AiretryInput } from '../../../core/schemas/airetry-input';
import { SampleTree } from '../../../core/tree/sample-tree';
import { GroveClient } from '../../grove-client';
import { connectClient } from '../../temporal-server/connect';
import { ensureModel } from '../../local/ensure-model';
import { ensureTemporal } from '../../local/ensure-temporal';
import { startLocalWorker } from '../../local/local-worker';
import { parseCommandArgs } from '../usage-error';

const COLOR_GAME: AiretryInput = {
  prompt: 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
  config: { nSamples: 2 },
  apiKwargs: { n: 2 },
  seed: 1,
  checks: [
    { kind: 'maxWords', max: 1, feedback: 'You must answer with 1 word only.' },
    { kind: 'lowercase', feedback: 'You must answer in lowercase.' },
    { kind: 'startsWith', value: 'y', feedback: 'It starts with "y"' },
  ],
};

export async function demoCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('demo', args, { keep: { type: 'boolean' }, exit: { type: 'boolean' } });
  const taskQueue = `grove-demo`;
  const temporal = await ensureTemporal({ log: io.out });
  const model = await ensureModel({ log: io.out });
  const worker = await startLocalWorker({ settings: temporal.settings, llm: model.llm, taskQueue });
  const grove = new GroveClient(await connectClient(temporal.settings), taskQueue, temporal.settings);
  try {
    const prompt = 'Say hi to grove, a library for durable LLM tree search!';
    io.out(`\n> ${prompt}`);
    const result = await grove.run('generate', { prompt });
    io.out(result.output ?? '');
    io.out(`(workflow ${result.workflowId}, ${result.usage.totalTokens} tokens, model ${result.model})`);

    io.out(`\n> ${COLOR_GAME.prompt}`);
    io.out('  checks: 1 word only; lowercase; starts with "y" — each failure is fed back and retried from the best sample');
    const game = await grove.run('airetry', { ...COLOR_GAME, model: model.scripted ? 'color-guesser' : undefined });
    io.out(`${String(game.output)}   (${game.success ? 'all checks passed' : 'budget exhausted'}: ${game.calls} samples, ${game.retries} retries)\n`);
    io.out(formatCallTree(SampleTree.fromJSON<ConversationDelta>(game.tree), { activeSampleId: game.activeSampleId, answers: true }));
    const link = grove.runUrl(game.workflowId);
    if (link) io.out(`\nTemporal UI: ${link}`);
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
