import type { CodeFixerResult } from '../../../core/code/code-fixer-input';
import { codeFixerVerdict } from '../../../core/verdicts/verdict-line';

/**
 * A code fixer's answer as `grove run code-fixer` and `grove result` print it: the chosen code,
 * then one line saying what running it with the tests in the sandbox showed (see
 * `codeFixerVerdict`).
 *
 * @example
 * codeFixerLines(result);
 * // ['def is_palindrome(s): ...', '', 'fixed: 3/3 tests passed in the sandbox (2 attempts, 1 feedback round)']
 */
export function codeFixerLines(result: CodeFixerResult): string[] {
  const code = result.code?.trimEnd() || '(no code: no answer held a fenced code block)';
  return [code, '', codeFixerVerdict(result)];
}
