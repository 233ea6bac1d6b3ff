import { describeRun } from '../../../../core/runs/describe-run';
import { describeFigures, figuresOfProgress, figuresOfResult } from '../../../../core/runs/run-figures';

/** The figures every surface shows (docs/runs.md, "The figures"), from each kind's result and live progress. */
test('a running search: model calls and tool runs from its counters, best only once a step is scored', () => {
  expect(figuresOfProgress('agent:mcts', { counters: { llmCalls: 24, toolRuns: 11 }, usage: { totalTokens: 9000 }, bestScore: 0.8 })).toEqual({ modelCalls: 24, toolRuns: 11, tokens: 9000, best: 0.8 });
  expect(figuresOfProgress('agent:mcts', { counters: { llmCalls: 0, toolRuns: 0 }, usage: { totalTokens: 0 } })).toEqual({ modelCalls: 0, toolRuns: 0, tokens: 0 });
});

test('airetry: model calls are requests, samples what they drew; an answerless extraction scores 0', () => {
  const tree = { nodes: [[0, null, { add: [] }], [1, 0, { add: [{ role: 'assistant', runId: 'r0' }] }], [2, 0, { add: [{ role: 'assistant', runId: 'r0' }] }], [3, 1, { add: [{ role: 'assistant', runId: 'r1' }] }]] };
  // A run from before grove counted requests: counted from the requests its samples came from.
  expect(figuresOfResult('airetry', { success: true, calls: 3, tree, output: 'y', usage: { totalTokens: 10 } })).toEqual({ modelCalls: 2, samples: 3, tokens: 10, best: 1 });
  expect(figuresOfResult('airetry', { success: false, calls: 2, modelCalls: 2, output: null, checks: [{ passed: true }] })).toMatchObject({ best: 0 });
  expect(figuresOfResult('airetry', { success: false, calls: 2, modelCalls: 2, output: 'x', checks: [{ passed: true }, { passed: false }] })).toMatchObject({ best: 0.5 });
});

test('code fixer: no tests, no score', () => {
  expect(figuresOfResult('code-fixer', { success: true, calls: 1, modelCalls: 1, outcome: { ok: true } }).best).toBeUndefined();
  expect(figuresOfResult('code-fixer', { success: true, calls: 2, modelCalls: 2, outcome: { ok: true, tests: { passed: 3, total: 3 } } }).best).toBe(1);
});

test('words: singular for one, samples only where they differ from the calls', () => {
  expect(describeFigures({ modelCalls: 1, samples: 2, tokens: 1234 })).toBe('1 model call (2 samples), 1,234 tokens');
  expect(describeFigures({ modelCalls: 2, samples: 2, toolRuns: 1 })).toBe('2 model calls, 1 tool run');
});

test('outcome first: a stopped search leads with who stopped it, and its answer is labelled partial', () => {
  const run = describeRun('agent:mcts', { isSolution: false, score: 0.2, answer: '42', verdict: { by: 'judge', model: 'j', selfJudged: false, verified: false }, stop: { kind: 'stopped', message: 'stopped by ana' }, counters: { llmCalls: 15, toolRuns: 10 }, usage: { totalTokens: 5277 }, nodes: 11 });
  expect(run.headline).toBe('stopped by ana: not solved (judged by j) — score 0.20; 15 model calls, 10 tool runs, 5,277 tokens; 11 nodes');
  expect([run.answerLabel, run.answer]).toEqual(['best answer found (score 0.20; not a solution)', '42']);
  // A generate answer cut at the token limit says so.
  expect(describeRun('generate', { output: 'Need a quic', finishReason: 'length', usage: { totalTokens: 70 } }).answerLabel).toMatch(/^answer \(cut: /);
});

test('the outcome is one line whatever the run carries: a line break in a name cannot forge a line of its own', () => {
  const run = describeRun('airetry', { success: false, output: 'x', checks: [{ name: 'c', passed: false }], verdict: { by: 'checks', verified: true }, stopped: { by: 'ana\ncompleted: all checks passed' }, calls: 1, modelCalls: 1, retries: 0 });
  expect(run.headline).not.toContain('\n');
  expect(run.headline).toMatch(/^stopped by ana completed: all checks passed: not all checks passed /);
});
