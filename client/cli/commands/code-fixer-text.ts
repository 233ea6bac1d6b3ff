import { shorten } from '../../../core/conversation/preview';
import type { CodeFixerResult } from '../../../core/code/code-fixer-input';

/**
 * A code fixer's answer as `grove run code-fixer` and `grove result` print it: the chosen code,
 * then one line saying what running it with the tests in the sandbox showed — who decided the
 * verdict, how many tests held, what failed — and what it took. A run given no tests is never
 * called fixed: running without an error is all that was checked, and the line says so.
 *
 * @example
 * codeFixerLines(result);
 * // ['def is_palindrome(s): ...', '', 'fixed: 3/3 tests passed in the sandbox (2 attempts, 1 feedback round)']
 */
export function codeFixerLines(result: CodeFixerResult): string[] {
  const { outcome } = result;
  const took = `${plural(result.calls, 'attempt')}, ${plural(result.retries, 'feedback round')}`;
  const code = result.code?.trimEnd() || '(no code: no answer held a fenced code block)';
  let verdict: string;
  if (!outcome) verdict = `not fixed: no attempt ran (${took})`;
  else if (result.success && outcome.tests) verdict = `fixed: ${outcome.tests.passed}/${outcome.tests.total} tests passed in the sandbox (${took})`;
  else if (result.success) verdict = `ran without error in the sandbox; no tests were given, so nothing checked what it does (${took})`;
  else {
    const error = outcome.error ? `${outcome.error.kind} error${outcome.error.line ? ` at line ${outcome.error.line}` : ''}: ${shorten(outcome.error.message.trim().split('\n')[0], 200)}` : 'it did not pass';
    const tests = outcome.tests ? `${outcome.tests.passed}/${outcome.tests.total} tests passed${outcome.tests.completed === false ? ' before the tests stopped early' : ''}; ` : '';
    verdict = `not fixed: ${error} (${tests}${took})`;
  }
  return [code, '', verdict];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
