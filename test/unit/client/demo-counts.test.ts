import { modelSideCounts } from '../../../client/cli/commands/demo-restart';

const request = (callKey: string | undefined, outcome: 'completed' | 'aborted' | 'failed') => ({ model: 'smollm2', ...(callKey ? { callKey } : {}), status: outcome === 'completed' ? 200 : 499, outcome, lastUserText: '', n: 2, messages: 2 });

test("the demo counts one run's requests at grove's model server by their call keys: answered, cut off unanswered, and calls asked again after their answer", () => {
  const stats = {
    requests: [
      request('code-fixer-demo-a/llmChat:1', 'completed'),
      request('code-fixer-demo-a/llmChat:2', 'aborted'),
      request('code-fixer-demo-a/llmChat:2', 'completed'),
      request('code-fixer-demo-b/llmChat:1', 'completed'),
      request(undefined, 'completed'),
    ],
    callKeys: { distinct: 3, repeatedAfterCompletion: 1, repeated: ['code-fixer-demo-b/llmChat:1'] },
  };
  expect(modelSideCounts(stats, 'code-fixer-demo-a')).toEqual({ answered: 2, unanswered: 1, repaid: 0 });
  expect(modelSideCounts(stats, 'code-fixer-demo-b')).toEqual({ answered: 1, unanswered: 0, repaid: 1 });
  // A run whose id is a prefix of another's is not counted with it.
  expect(modelSideCounts(stats, 'code-fixer-demo')).toEqual({ answered: 0, unanswered: 0, repaid: 0 });
});
