import { aiClassify, aiEmbed, aiExtract, aiGenerate, aiScan, airetry, lastOutput, llmJudge } from '../../workflows/api';
import { z } from 'zod';

/**
 * Test-only workflows exercising the rest of the workflow-side API end to end: classification,
 * images, embeddings, structured output in tool mode, and an LLM-judge check.
 */
export async function apiTour(): Promise<Record<string, unknown>> {
  const verdict = aiClassify('Is "yellow" a color?', ['yes', 'no'] as const, { model: 'classifier?answer=yes' });
  await verdict.run();

  const scan = aiScan('Describe the picture.', ['https://example.com/cat.png', 'data:image/png;base64,iVBORw0KGgo='], { model: 'image-counter', detail: 'low' });
  await scan.run();

  const embedding = aiEmbed(['apple', 'pear'], { model: 'any-embedder', dimensions: 8 });
  await embedding.run();

  const food = aiExtract('I just ate a delicious and juicy apple.', z.object({ name: z.string(), adjectives: z.array(z.string()).optional() }), {
    model: 'food-extractor',
    name: 'Food',
    mode: 'tool',
  });
  await food.run();
  await airetry((x) => x.outputError === undefined, food, 'The keys should be "name", "adjectives".');

  const echo = aiGenerate('Say something', { model: 'echo', config: { maxRetries: 1 } });
  await echo.run();
  await airetry(llmJudge('Does the text start with "Echo"?', { model: 'classifier?accept=Echo' }), echo, 'Start with Echo.');

  return {
    verdict: verdict.output,
    scan: lastOutput(scan),
    embeddings: embedding.output?.map((v) => v.length),
    food: food.output,
    foodRetries: food.config.retries,
    judged: echo.success,
    judgeTokens: echo.usage.totalTokens,
  };
}
