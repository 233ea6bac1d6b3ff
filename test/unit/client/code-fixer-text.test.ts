import { codeFixerLines } from '../../../client/cli/commands/code-fixer-text';
import type { CodeFixerResult } from '../../../core/code/code-fixer-input';

const base = (over: Partial<CodeFixerResult>): CodeFixerResult => ({
  success: true,
  code: 'def add(a, b):\n    return a + b\n',
  outcome: { ok: true, stdout: '', stderr: '', durationMs: 3, tests: { passed: 3, total: 3 } },
  attempts: [],
  activeSampleId: 2,
  conversation: [],
  calls: 2,
  retries: 1,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  tree: undefined,
  treeText: '',
  ...over,
});

test('a fixed run prints its code and the tests that held in the sandbox', () => {
  expect(codeFixerLines(base({}))).toEqual(['def add(a, b):\n    return a + b', '', 'fixed: 3/3 tests passed in the sandbox (2 attempts, 1 feedback round)']);
});

test('a run that is not fixed says what failed and how many tests held; never "fixed"', () => {
  const outcome = { ok: false, stdout: '', stderr: '', durationMs: 3, tests: { passed: 2, total: 3 }, error: { kind: 'test' as const, message: "line 2: assert add(2, 2) == 4 failed\nmore" } };
  expect(codeFixerLines(base({ success: false, outcome, calls: 4, retries: 3 }))[2]).toBe('not fixed: test error: line 2: assert add(2, 2) == 4 failed (2/3 tests passed; 4 attempts, 3 feedback rounds)');
  expect(codeFixerLines(base({ success: false, code: undefined, outcome: undefined, calls: 1, retries: 0 }))).toEqual([
    '(no code: no answer held a fenced code block)',
    '',
    'not fixed: no attempt ran (1 attempt, 0 feedback rounds)',
  ]);
});

test('tests that stopped early are said to have stopped', () => {
  const outcome = { ok: false, stdout: '', stderr: '', durationMs: 3, tests: { passed: 1, total: 1, completed: false }, error: { kind: 'runtime' as const, message: 'SystemExit: 0' } };
  expect(codeFixerLines(base({ success: false, outcome }))[2]).toBe('not fixed: runtime error: SystemExit: 0 (1/1 tests passed before the tests stopped early; 2 attempts, 1 feedback round)');
});

test('without tests, running without an error is all it claims', () => {
  const outcome = { ok: true, stdout: '', stderr: '', durationMs: 3 };
  expect(codeFixerLines(base({ outcome, calls: 1, retries: 0 }))[2]).toBe('ran without error in the sandbox; no tests were given, so nothing checked what it does (1 attempt, 0 feedback rounds)');
});
