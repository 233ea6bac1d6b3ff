import { aiGenerate, airetry, exposeCall, lastOutput } from '../workflows/api';
import { exampleResult, type ExampleResult } from './example-result';

/**
 * The seeds' color game: two samples per round, three airetry checks, and the tree of
 * attempts. With the scripted `color-guesser` the player first breaks each rule at random and
 * obeys the feedback it is given, so every check takes retries and the game ends on "yellow".
 *
 * @example
 * await client.workflow.execute(colorGame, { taskQueue, workflowId: 'color', args: [{ seed: 1 }] });
 */
export async function colorGame(opts: { model?: string; seed?: number } = {}): Promise<ExampleResult<string>> {
  const out = aiGenerate(
    'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
    { model: opts.model ?? 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed: opts.seed },
  );
  exposeCall(out);
  await out.run();
  await airetry((x) => lastOutput(x).split(/ |\./).length === 1, out, 'You must answer with 1 word only.');
  await airetry((x) => lastOutput(x) === lastOutput(x).toLowerCase(), out, 'You must answer in lowercase.');
  await airetry((x) => lastOutput(x).startsWith('y'), out, 'It starts with "y"');
  return exampleResult(out);
}
