import { formatProgress } from '../../../client/cli/progress-line';

test('a search: step, nodes, calls of the budget, tokens, cost and the best score', () => {
  const line = formatProgress({
    nodes: 31,
    counters: { steps: 12, llmCalls: 14 },
    usage: { totalTokens: 3210 },
    costUsd: 0.0021,
    bestScore: 0.7,
    budget: { maxCalls: 60, maxCostUsd: 0.5 },
  });
  expect(line).toBe('step 12 · 31 nodes · 14/60 model calls · 3,210 tokens · $0.0021 of $0.5 · best 0.70');
});

test('an airetry call: samples, calls and retries against their limits', () => {
  expect(formatProgress({ samples: 6, calls: 3, maxCalls: 99, retries: 2, maxRetries: 10, usage: { totalTokens: 120 } })).toBe(
    '6 samples · 3/99 calls · 2/10 retries · 120 tokens',
  );
});
