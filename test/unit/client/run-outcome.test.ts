import { EXIT, exitCodeOf, isVerified } from '../../../client/runs/run-outcome';
import { verdictLine } from '../../../client/cli/commands/print-outcome';

const judge = { by: 'judge', model: 'smollm2', selfJudged: true, verified: false } as const;

test('exit codes: 0 only for a verified success; 4 for a success only a model judged; 3 unsolved', () => {
  expect(exitCodeOf({ isSolution: true, verdict: { by: 'evaluator', evaluator: 'checker', verified: true } })).toBe(EXIT.succeeded);
  expect(exitCodeOf({ isSolution: true, verdict: judge })).toBe(EXIT.unverified);
  expect(exitCodeOf({ isSolution: false, verdict: judge })).toBe(EXIT.unsolved);
  expect(exitCodeOf({ success: true, verdict: { by: 'checks', verified: true } })).toBe(EXIT.succeeded);
  expect(exitCodeOf({ success: true, verdict: { by: 'checks', judges: [{ model: 'm', selfJudged: false, check: 'llmJudge#0' }], verified: false } })).toBe(EXIT.unverified);
  // A claim without a verdict (a run from before grove recorded one) is not verified; a generate answer claims nothing.
  expect(exitCodeOf({ success: true })).toBe(EXIT.unverified);
  expect(isVerified({ output: 'hi' })).toBe(true);
  expect(exitCodeOf({ output: 'hi' })).toBe(EXIT.succeeded);
});

test('the verdict line: never a bare "solved" for an unverified verdict; failed checks are named', () => {
  expect(verdictLine({ isSolution: true, verdict: judge })).toBe('judged solved by smollm2, the model that wrote it; not verified');
  expect(verdictLine({ isSolution: true })).toBe('solved; who decided is not recorded (a run from before grove recorded it): not verified');
  expect(verdictLine({ success: false, checks: [{ name: 'lowercase#1', passed: false }, { name: 'maxWords#0', passed: true }], verdict: { by: 'checks', verified: true } })).toBe(
    'not all checks passed (by deterministic checks): lowercase#1 failed',
  );
  expect(verdictLine({ success: true, attempts: [], calls: 2, retries: 1, outcome: { ok: true, tests: { passed: 3, total: 3 } }, verdict: { by: 'tests', verified: true } })).toBe(
    'fixed: 3/3 tests passed in the sandbox (2 attempts, 1 feedback round)',
  );
  expect(verdictLine({ output: 'hi' })).toBeUndefined();
});

test('an extraction that never matched its schema says so, not that a check failed', () => {
  const checks = { by: 'checks', verified: true } as const;
  expect(verdictLine({ success: false, checks: [{ name: 'contains#0', passed: true }], verdict: checks })).toBe('no output: the answer does not match the extract schema (by deterministic checks)');
});
