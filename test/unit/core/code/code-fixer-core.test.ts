import { AICall, textOutput, type AICallPort } from '../../../../core/airetry';
import { messageRef } from '../../../../core/hash/refs';
import { codeFeedback, missingCodeFeedback, truncateMiddle } from '../../../../core/code/code-feedback';
import { runCodeFixer, type ExecPort } from '../../../../core/code/code-fixer';
import type { CodeOutcome } from '../../../../core/code/code-outcome';
import { extractCode } from '../../../../core/code/extract-code';
import { userMessage } from '../../../../core/schemas/messages';

describe('extractCode', () => {
  test('takes every block in the language or untagged, in order, and leaves other languages out', () => {
    const answer = 'Helper:\n```python\ndef sq(x):\n    return x * x\n```\nRun it:\n```bash\npython main.py\n```\n```\nprint(sq(3))\n```';
    expect(extractCode(answer, 'python')).toEqual({ code: 'def sq(x):\n    return x * x\n\nprint(sq(3))', blocks: 3, used: 2 });
  });
  test('an unterminated fence still yields its code; no fence takes code-looking answers only', () => {
    expect(extractCode('```js\nconst a = 1;\nconsole.log(a)', 'js').code).toBe('const a = 1;\nconsole.log(a)');
    expect(extractCode('def f():\n    return 1', 'python').code).toBe('def f():\n    return 1');
    expect(extractCode('I would write a loop.', 'python')).toEqual({ blocks: 0, used: 0 });
    expect(extractCode('```python\n```', 'python').code).toBeUndefined();
  });
});

describe('codeFeedback', () => {
  const failed = (error: CodeOutcome['error'], extra: Partial<CodeOutcome> = {}): CodeOutcome => ({ ok: false, stdout: '', stderr: '', durationMs: 1, error, ...extra });
  test('names the kind, the message, the failing line of the code, the tests and the output', () => {
    const text = codeFeedback(failed({ kind: 'runtime', message: "NameError: name 'y' is not defined", line: 2 }, { stdout: 'starting\n' }), { code: 'def f(x):\n    return y\nf(1)' });
    expect(text).toBe("**Error Detected:** NameError: name 'y' is not defined\n**Line 2:** `return y`\n**Output Captured:** starting");
    expect(codeFeedback(failed({ kind: 'test', message: 'line 1: assert f(1) == 2 failed' }, { tests: { passed: 3, total: 4 } }))).toBe('**Test Failed:** line 1: assert f(1) == 2 failed\n**Tests:** 3/4 passed.');
    expect(codeFeedback(failed({ kind: 'timeout', message: 'the program ran longer than 5000 ms' }))).toContain('Timeout error');
    expect(codeFeedback({ ok: true, stdout: '', stderr: '', durationMs: 1 })).toContain('Execution has been successful');
    expect(missingCodeFeedback('python')).toContain('```python');
  });
  test('is truncated to maxLength, keeping the start and the end', () => {
    const long = codeFeedback(failed({ kind: 'runtime', message: `Error: ${'x'.repeat(2_000)} THE END` }), { maxLength: 200 });
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.startsWith('**Error Detected:** Error: xx')).toBe(true);
    expect(long.endsWith('THE END')).toBe(true);
    expect(truncateMiddle('short', 10)).toBe('short');
  });
});

describe('runCodeFixer (the seeds loop on the sample tree, with a fake sandbox)', () => {
  // A "model" that answers with the code for attempt k; a sandbox that passes only `good`.
  function setup(answers: string[]) {
    let k = 0;
    const port: AICallPort = {
      async chat(_refs, _path, request) {
        const message = { role: 'assistant' as const, content: answers[Math.min(k++, answers.length - 1)]!, runId: request.runId, sampleId: 0 };
        return { choices: [{ message, ref: messageRef(message), finishReason: 'stop' }], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: 'scripted' };
      },
      async sleep() {},
    };
    const call = new AICall<string>([userMessage('Write f.')], { kind: 'generate', parser: textOutput, port });
    const ran: string[] = [];
    const exec: ExecPort = async ({ code }) => {
      ran.push(code);
      return code.includes('good')
        ? { ok: true, stdout: '', stderr: '', durationMs: 1, tests: { passed: 1, total: 1 } }
        : { ok: false, stdout: '', stderr: '', durationMs: 1, error: { kind: 'test', message: 'line 1: assert f() failed' }, tests: { passed: 0, total: 1 } };
    };
    return { call, exec, ran };
  }
  test('feeds the first template, then the later one, and stops when the code passes', async () => {
    const { call, exec, ran } = setup(['```python\nbad1\n```', '```python\nbad2\n```', '```python\ngood\n```']);
    const out = await runCodeFixer(call, exec, { language: 'python', testCode: 'assert f()', templates: { first: 'FIRST {{feedback}}', later: 'LATER {{feedback}}' } });
    expect([out.success, out.code, ran]).toEqual([true, 'good', ['bad1', 'bad2', 'good']]);
    const users = call.conversation.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(users.slice(1).map((u) => u.trim().split(' ')[0])).toEqual(['FIRST', 'LATER']);
    expect(users[1]).toContain('**Test Failed:** line 1: assert f() failed');
  });
  test('stops after numRounds and reports the attempt the scoring picks', async () => {
    const { call, exec, ran } = setup(['```python\nbad\n```']);
    const out = await runCodeFixer(call, exec, { language: 'python', numRounds: 2 });
    expect([out.success, ran, call.config.retries]).toEqual([false, ['bad', 'bad', 'bad'], 2]);
    expect(out.attempts.length).toBe(3);
  });
  test('an unknown feedback function is refused', async () => {
    const { call, exec } = setup(['x']);
    await expect(runCodeFixer(call, exec, { language: 'python', feedback: 'nope' })).rejects.toThrow(/unknown feedback function "nope"/);
  });
});
