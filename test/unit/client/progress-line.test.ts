import { formatProgress, watchProgress } from '../../../client/cli/progress-line';

test('a search: step, nodes, calls of the budget, tokens, cost and the best score', () => {
  const line = formatProgress({
    nodes: 31,
    counters: { steps: 12, llmCalls: 14, toolRuns: 1 },
    usage: { totalTokens: 3210 },
    costUsd: 0.0021,
    bestScore: 0.7,
    budget: { maxCalls: 60, maxCostUsd: 0.5 },
  });
  expect(line).toBe('step 12 · 31 nodes · 14/60 model calls · 1 tool run · 3,210 tokens · $0.0021 of $0.5 · best 0.70');
});

test('an airetry call: model calls (requests), then samples and retries against their limits', () => {
  expect(formatProgress({ samples: 6, calls: 6, modelCalls: 3, maxCalls: 99, retries: 2, maxRetries: 10, usage: { totalTokens: 120 } })).toBe(
    '3 model calls · 6/99 samples · 2/10 retries · 120 tokens',
  );
  // A run from before grove counted requests: no model-call figure rather than a wrong one.
  expect(formatProgress({ samples: 6, calls: 6, maxCalls: 99, retries: 2, maxRetries: 10 })).toBe('6/99 samples · 2/10 retries');
});

test('a session: turns, model calls, tool runs, and who must act', () => {
  expect(formatProgress({ turn: 2, counters: { turns: 2, modelCalls: 3, toolRuns: 1 }, pending: 1, usage: { totalTokens: 90 } })).toBe(
    '2 turns · 3 model calls · 1 tool run · 1 waiting for approval · 90 tokens',
  );
});

describe('watchProgress', () => {
  const handle = (progress: Record<string, unknown> | Error) =>
    ({ query: async () => (progress instanceof Error ? Promise.reject(progress) : progress) }) as never;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('on a terminal: one line rewritten in place, cleared when the run ends', async () => {
    const written: string[] = [];
    const stop = watchProgress(handle({ samples: 2, calls: 1, maxCalls: 9, retries: 0, maxRetries: 3 }), { tty: true, write: (t) => written.push(t), everyMs: 20 });
    await sleep(400);
    stop();
    expect(written.length).toBeGreaterThan(1);
    expect(written[0]).toMatch(/^\r\x1b\[2K1\/9 samples · 0\/3 retries · \d+ s$/);
    expect(written[written.length - 1]).toBe('\r\x1b[2K');
  });

  test('in a log: a plain line now and then; a run without a progress query shows the wait', async () => {
    const written: string[] = [];
    const stop = watchProgress(handle(new Error('no such query')), { tty: false, write: (t) => written.push(t), everyMs: 10, logEveryMs: 100 });
    await sleep(350);
    stop();
    expect(written.length).toBeGreaterThanOrEqual(2);
    expect(written.length).toBeLessThanOrEqual(4);
    expect(written[0]).toMatch(/^progress: waiting for the model · \d+ s\n$/);
  });

  test('a run in trouble says so after its counters, within one terminal row', async () => {
    const written: string[] = [];
    const line = 'stalled: model call (llmChat) expand n0 — 8 failed attempts since 13:02:11, last: GroveNetworkError: cannot reach the model endpoint; next attempt in 12 s';
    const health = async () => ({ state: 'stalled' as const, pending: [], stalledAfterMs: 30_000, checkedAt: '', line });
    const progress = { nodes: 4, counters: { steps: 2, llmCalls: 6 }, budget: { maxCalls: 60 } };
    const stop = watchProgress(handle(progress), { tty: true, write: (t) => written.push(t), everyMs: 20, health });
    await sleep(400);
    stop();
    expect(written[0]).toMatch(new RegExp(`^\\r\\x1b\\[2Kstep 2 · 4 nodes · 6/60 model calls · \\d+ s · ${line.replace(/[()]/g, '\\$&')}$`));
    const narrow: string[] = [];
    const stopNarrow = watchProgress(handle(progress), { tty: true, write: (t) => narrow.push(t), everyMs: 20, health, columns: 80 });
    await sleep(400);
    stopNarrow();
    expect(narrow[0].length).toBe('\r\x1b[2K'.length + 79);
    expect(narrow[0].endsWith('…')).toBe(true);
  });
});
