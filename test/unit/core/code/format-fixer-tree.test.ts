import { AICall, textOutput, type AICallPort } from '../../../../core/airetry';
import { messageRef } from '../../../../core/hash/refs';
import { runCodeFixer, type ExecPort } from '../../../../core/code/code-fixer';
import { attemptOutcome, formatFixerTree, sandboxRuns } from '../../../../core/code/format-fixer-tree';
import { userMessage } from '../../../../core/schemas/messages';
import { codeFixerVerdict } from '../../../../core/verdicts/verdict-line';

/** A "model" that answers in turn with these texts and finish reasons; a sandbox that passes only code saying `good`. */
function fixer(answers: Array<[string, string]>) {
  let k = 0;
  const port: AICallPort = {
    async chat(_refs, _path, request) {
      const [content, finishReason] = answers[Math.min(k++, answers.length - 1)]!;
      const message = { role: 'assistant' as const, content, runId: request.runId, sampleId: 0 };
      return { choices: [{ message, ref: messageRef(message), finishReason }], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: 'scripted' };
    },
    async sleep() {},
  };
  const call = new AICall<string>([userMessage('Write f.')], { kind: 'generate', parser: textOutput, port });
  const exec: ExecPort = async ({ code }) =>
    code.includes('good')
      ? { ok: true, stdout: '', stderr: '', durationMs: 1, tests: { passed: 1, total: 1 } }
      : code.endsWith('(')
        ? { ok: false, stdout: '', stderr: '', durationMs: 1, error: { kind: 'syntax', message: 'unexpected end of input' } }
        : { ok: false, stdout: '', stderr: '', durationMs: 1, error: { kind: 'test', message: 'line 1: assert(f()) failed' }, tests: { passed: 0, total: 1 } };
  return { call, exec };
}

test('each attempt of a code fixer says what the sandbox said of it; a cut answer says it was cut, and why; the returned one is marked', async () => {
  const { call, exec } = fixer([
    ['I would write a loop.', 'stop'],
    ['```js\nconst f = () => 1', 'stop'],
    ['```js\nconst f = (', 'length'],
    ['```js\nconst f = () => "good"\n```', 'stop'],
  ]);
  const fixed = await runCodeFixer(call, exec, { language: 'js', testCode: 'assert(f())', numRounds: 3 });
  expect(fixed.success).toBe(true);
  // As the workflow's result lists them.
  const attempts = fixed.attempts.map((a) => ({ sampleId: a.sampleId, ok: a.outcome.ok, kind: a.outcome.error?.kind, tests: a.outcome.tests, ...(a.cut ? { cut: true } : {}) }));
  expect(attempts.filter((a) => a.cut).map((a) => a.sampleId)).toEqual([3]);
  const lines = formatFixerTree(call.samples, attempts, { activeSampleId: call.activeSampleId, language: 'js' }).split('\n');
  expect(lines[0]).toMatch(/^SampleNode\(id: 0, stats: 1\/\d+/);
  expect(lines[1]).toMatch(/SampleNode\(id: 1, .*\) → no js code in the answer$/);
  expect(lines[2]).toMatch(/SampleNode\(id: 2, .*\) → test failed: 0\/1 tests passed$/);
  expect(lines[3]).toMatch(/SampleNode\(id: 3, .*\) → syntax error \(its answer was cut: it reached max_tokens\)$/);
  expect(lines[4]).toMatch(/SampleNode\(id: 4, .*\) → passed: 1\/1 tests \(returned\)$/);
  expect(lines).toHaveLength(5);
  // The answer without code was fed back without a run.
  expect(sandboxRuns(call.samples, attempts, 'js')).toBe(3);
});

test('a code fixer that ends on a cut answer says so in its verdict', () => {
  const result = {
    success: false,
    activeSampleId: 2,
    calls: 2,
    retries: 1,
    outcome: { ok: false, stdout: '', stderr: '', durationMs: 1, error: { kind: 'syntax', message: 'unexpected end of input', line: 3 } },
    attempts: [{ sampleId: 1, ok: false, kind: 'test', tests: { passed: 0, total: 1 } }, { sampleId: 2, ok: false, kind: 'syntax', cut: true }],
  };
  expect(codeFixerVerdict(result)).toBe('not fixed: syntax error at line 3: unexpected end of input (its answer was cut at max_tokens; 2 attempts, 1 feedback round)');
  expect(codeFixerVerdict({ ...result, attempts: [result.attempts[0], { sampleId: 2, ok: false, kind: 'syntax' }] })).toBe('not fixed: syntax error at line 3: unexpected end of input (2 attempts, 1 feedback round)');
});

test('an attempt in a few words: passed, which error, the tally', () => {
  expect(attemptOutcome({ sampleId: 1, ok: true, tests: { passed: 3, total: 3 } })).toBe('passed: 3/3 tests');
  expect(attemptOutcome({ sampleId: 1, ok: true })).toBe('ran without error (no tests)');
  expect(attemptOutcome({ sampleId: 1, ok: false, kind: 'runtime' })).toBe('runtime error');
  expect(attemptOutcome({ sampleId: 1, ok: false, kind: 'runtime', tests: { passed: 1, total: 2 } })).toBe('runtime error: 1/2 tests passed');
});
