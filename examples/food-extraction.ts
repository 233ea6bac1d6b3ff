import { z } from 'zod';
import { aiExtract, airetry, exposeCall } from '../workflows/api';
import { exampleResult, type ExampleResult } from './example-result';

/** Extract the name of the food from the sentence, and any adjectives for it. */
export const Food = z
  .object({
    name: z.string(),
    adjectives: z.array(z.string()).nullable().optional(),
  })
  .describe('Extract the food from the sentence. Extract any provided adjectives for the food as well.');

/**
 * The seeds' `aiextract` fix: the scripted `food-extractor` first answers with the key "food"
 * instead of "name"; the schema check fails, the feedback names the expected keys, and one
 * retry gives a valid `Food`.
 *
 * @example
 * const { output } = await client.workflow.execute(foodExtraction, { taskQueue, workflowId: 'food', args: [] });
 * // output: { name: 'apple', adjectives: ['delicious', 'juicy'] }
 */
export async function foodExtraction(opts: { model?: string } = {}): Promise<ExampleResult<z.infer<typeof Food>>> {
  const result = aiExtract('I just ate a delicious and juicy apple.', Food, {
    name: 'Food',
    model: opts.model ?? 'food-extractor',
    apiKwargs: { temperature: 0.2 },
    config: { maxRetries: 3 },
  });
  exposeCall(result);
  await result.run();
  const feedback = `The output is not in the correct format. The keys should be ${Object.keys(Food.shape).map((k) => `"${k}"`).join(', ')}.`;
  await airetry((x) => x.outputError === undefined, result, feedback);
  return exampleResult(result);
}
