import type { ChatPolicy } from '../../model-server';
import { integrationSuite } from '../support/integration-suite';
import { uniqueTaskQueue } from '../support/temporal-env';

/** Answers with how many images the last user message carried, so the test sees what reached the model. */
const imageCounter: ChatPolicy = {
  name: 'image-counter',
  respond(req, ctx) {
    const last = [...req.messages].reverse().find((m) => m.role === 'user');
    const parts = Array.isArray(last?.content) ? last.content : [];
    const images = parts.filter((p) => (p as { type?: string }).type === 'image_url').length;
    const text = parts.filter((p) => (p as { type?: string }).type === 'text').map((p) => (p as { text: string }).text).join('');
    return Array.from({ length: ctx.n }, () => ({ content: `${images} images; text: ${text}` }));
  },
};

const suite = integrationSuite('api', { policies: [imageCounter] });

test('aiClassify, aiScan, aiEmbed, aiExtract (tool mode) and an llmJudge check run durably from workflow code', async () => {
  const result = await suite.withWorker((taskQueue) =>
    suite.env.client.workflow.execute('apiTour', { taskQueue, workflowId: uniqueTaskQueue('api-tour'), args: [] }),
  );
  expect(result).toMatchObject({
    verdict: 'yes',
    scan: '2 images; text: Describe the picture.',
    embeddings: [8, 8],
    food: { name: 'apple', adjectives: ['delicious', 'juicy'] },
    foodRetries: 1,
    judged: true,
  });
  expect(result.judgeTokens).toBeGreaterThan(0); // the judge's usage counts toward the checked call
  const byModel = suite.model.stats().byModel;
  expect(byModel['classifier']?.completed).toBe(2); // the classification and the judge
  expect(byModel['any-embedder']?.completed).toBe(1);
});
