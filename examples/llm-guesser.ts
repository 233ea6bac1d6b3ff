import { ApplicationFailure } from '@temporalio/workflow';
import { aiGenerate, airetry, exposeCall, lastOutput, type AICall } from '../workflows/api';
import { exampleResult, type ExampleResult } from './example-result';
import { RunFailure } from '../core/failures';

/**
 * The seeds' `llm_guesser`: the model guesses a number between 1 and 100 with feedback on the
 * format, a hint on the bounds, then how far off each guess is — 2 samples a round, at most 5
 * fixing rounds plus 3 guesses.
 *
 * @example
 * await client.workflow.execute(llmGuesser, { taskQueue, workflowId: 'guess-33', args: [33] });
 */
export async function llmGuesser(userNumber: number, opts: { model?: string; seed?: number } = {}): Promise<ExampleResult<string>> {
  if (!Number.isInteger(userNumber) || userNumber < 1 || userNumber > 100) {
    throw ApplicationFailure.nonRetryable(`userNumber must be an integer from 1 to 100, got ${userNumber}`, RunFailure.InvalidInput);
  }
  const prompt = "I'm thinking a number between 1-100. Guess which one it is. \nYou must respond only with digits and nothing else. \nYour guess:";
  const out = aiGenerate(prompt, {
    model: opts.model ?? 'number-guesser',
    config: { nSamples: 2, maxRetries: 5 },
    apiKwargs: { n: 2 },
    seed: opts.seed,
  });
  exposeCall(out);
  await out.run();
  const guess = (x: AICall<string>) => (/^\d+$/.test(lastOutput(x).trim()) ? Number(lastOutput(x).trim()) : undefined);

  // The proper output format: digits only. Feedback can be a function of the call.
  await airetry((x) => guess(x) !== undefined, out, (x) => `Output: ${lastOutput(x)}\nFeedback: You must respond only with digits!!`);

  // A hint on the bounds.
  const lower = Math.floor(userNumber / 10) * 10;
  const upper = lower + 10;
  await airetry((x) => {
    const g = guess(x);
    return g !== undefined && lower <= g && g <= upper;
  }, out, `The number is between or equal to ${lower} to ${upper}.`);

  // At most 3 more guesses, with how far off each one is.
  const maxRetries = out.config.retries + 3;
  await airetry(
    (x) => guess(x) === userNumber,
    out,
    (x) => `Your guess of ${guess(x)} is wrong, it's ${Math.abs((guess(x) ?? 0) - userNumber)} numbers away.`,
    { maxRetries },
  );
  return exampleResult(out);
}
