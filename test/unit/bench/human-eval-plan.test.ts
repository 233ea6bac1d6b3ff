import {
  decidingDraw, doneProblems, MAX_TOKENS, methodLabel, METHOD_BUDGETS, METHODS, perBudget, PLAN_VERSION, readProgress, tableRows,
  type ProgressRecord, type Spend,
} from '../../../bench/lib/human-eval-plan';

const mark = (completions: number, seconds: number): Spend => ({ completions, requests: completions, seconds });
const SHA = 'a'.repeat(64);
const record = (over: Partial<ProgressRecord> = {}): ProgressRecord => ({
  plan: PLAN_VERSION, model: 'smollm2', modelFile: 'SmolLM2-135M-Instruct.Q4_1.gguf', modelSha256: SHA, maxTokens: MAX_TOKENS,
  method: 'sampling', budget: 1, task: 'HumanEval/0', solved: false, completions: 1, requests: 1, seconds: 2, ...over,
});
const current = { plan: PLAN_VERSION, maxTokens: MAX_TOKENS, models: { smollm2: SHA } };

describe('spend per budget', () => {
  test('a budget is charged what was spent when its answer was decided, not what larger budgets drew after', () => {
    const marks = [mark(1, 3), mark(2, 7), mark(3, 12), mark(4, 20)];
    const run = perBudget([1, 4], ['p0', 'p1', 'p2', 'p3'], marks, undefined);
    expect(run.programs).toEqual({ 1: 'p0', 4: 'p3' });
    expect(run.spent[1]).toEqual(mark(1, 3));
    expect(run.spent[4]).toEqual(mark(4, 20));
  });
  test('a pass within the budget decides it there; a pass after it does not count for it', () => {
    const marks = [mark(1, 3), mark(2, 7), mark(3, 12)];
    const run = perBudget([1, 2, 4], ['p0', 'p1', 'p2'], marks, 2);
    expect(run.programs).toEqual({ 1: 'p0', 2: 'p1', 4: 'p2' });
    expect(run.spent).toEqual({ 1: mark(1, 3), 2: mark(2, 7), 4: mark(3, 12) });
  });
  test('the greedy answer passing decides every budget at one completion', () => {
    const run = perBudget([1, 4], ['p0'], [mark(1, 3)], 0);
    expect(run.programs).toEqual({ 1: 'p0', 4: 'p0' });
    expect(run.spent[4]).toEqual(mark(1, 3));
  });
  test('decidingDraw, and mismatched marks are refused', () => {
    expect(decidingDraw(undefined, 4, 4)).toBe(3);
    expect(decidingDraw(3, 4, 4)).toBe(3);
    expect(decidingDraw(3, 2, 4)).toBe(1);
    expect(() => decidingDraw(undefined, 1, 0)).toThrow('nothing was drawn');
    expect(() => perBudget([1], ['p0', 'p1'], [mark(1, 1)], undefined)).toThrow('2 programs but 1 marks');
  });
});

describe('labels', () => {
  test('only sampling at B=1 is the one-shot; sampling at B>1 is repeated sampling', () => {
    expect(methodLabel('sampling', 1)).toBe('one-shot (greedy, temperature 0)');
    expect(methodLabel('sampling', 4)).toMatch(/^repeated sampling \(1 greedy \+ 3 at temperature 0\.8/);
    for (const method of METHODS.filter((m) => m !== 'sampling')) {
      for (const budget of [1, 4]) expect(methodLabel(method, budget)).not.toMatch(/one-shot|sampling \(/);
    }
  });
  test('each label states the budget as the method spends it', () => {
    expect(methodLabel('linear-fixer', 4)).toContain('up to 3 rounds of test feedback');
    expect(methodLabel('tree-fixer', 4)).toContain('up to 4 samples');
    expect(methodLabel('mcts', 4)).toContain('up to 2 requests of 2 candidates');
  });
  test('the table labels every row by its own method and budget', () => {
    const records = [
      record({ budget: 1, solved: true }), record({ budget: 4, solved: true, completions: 1, requests: 1 }),
      record({ method: 'linear-fixer', budget: 4, completions: 4, requests: 4, seconds: 30 }),
    ];
    const rows = tableRows(records, ['HumanEval/0'], (m) => `model ${m}`);
    expect(rows.map((r) => [r.method, r['budget B'], r['completions / problem']])).toEqual([
      ['one-shot (greedy, temperature 0)', 1, '1.00'],
      [methodLabel('sampling', 4), 4, '1.00'],
      [methodLabel('linear-fixer', 4), 4, '4.00'],
    ]);
    expect(rows[0]!['pass@1']).toMatch(/^1\/1 \(100\.0 %\)/);
    expect(rows[2]!['pass@1']).toMatch(/^0\/1 \(0\.0 %\)/);
  });
});

describe('progress records', () => {
  test('records of another plan version, max_tokens or model file are ignored, as are unreadable lines', () => {
    const lines = [
      record({ task: 'HumanEval/1' }),
      record({ task: 'HumanEval/2', plan: 'he-1: 164 problems, B=1,4,8' }),
      record({ task: 'HumanEval/3', maxTokens: 512 }),
      record({ task: 'HumanEval/4', modelSha256: 'b'.repeat(64) }),
      { ...record({ task: 'HumanEval/5' }), method: 'best-of-n' },
    ].map((r) => JSON.stringify(r));
    const { records, ignored } = readProgress([...lines, '{"not json', ''].join('\n'), current);
    expect(records.map((r) => r.task)).toEqual(['HumanEval/1']);
    expect(ignored).toBe(5);
  });
  test('the last record of a (model, method, problem, budget) wins', () => {
    const text = [record({ solved: false }), record({ solved: true })].map((r) => JSON.stringify(r)).join('\n');
    expect(readProgress(text, current).records).toEqual([record({ solved: true })]);
  });
  test('a method that ended in an error is not a result: its cell is measured again, and an earlier result stands', () => {
    const timedOut = { ...record({ task: 'HumanEval/26', solved: false }), error: 'the model endpoint did not answer in time' };
    const text = [timedOut, record({ task: 'HumanEval/7', solved: true }), { ...record({ task: 'HumanEval/7' }), error: 'sandbox failed' }].map((r) => JSON.stringify(r)).join('\n');
    const { records, retried } = readProgress(text, current);
    expect(records).toEqual([record({ task: 'HumanEval/7', solved: true })]);
    expect(retried).toBe(2);
  });
  test('a problem is done when every method has a record at each of its budgets', () => {
    const methods = { smollm2: METHODS };
    const full = METHODS.flatMap((method) => METHOD_BUDGETS[method].map((budget) => record({ method, budget })));
    expect(doneProblems(full, ['HumanEval/0', 'HumanEval/1'], methods)).toEqual(['HumanEval/0']);
    expect(doneProblems(full.slice(1), ['HumanEval/0'], methods)).toEqual([]);
    expect(doneProblems(full.filter((r) => r.method === 'sampling'), ['HumanEval/0'], { smollm2: ['sampling'] })).toEqual(['HumanEval/0']);
  });
});
