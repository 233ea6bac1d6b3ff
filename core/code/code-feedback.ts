import type { CodeLanguage, CodeOutcome } from './code-outcome';

export interface CodeFeedbackOptions {
  /** The feedback's maximum length in characters (the seeds' `max_length`, default 512). */
  maxLength?: number;
  /** The code that ran, to quote the failing line. */
  code?: string;
}

/** The fence tag grove asks models to use per language. */
export const FENCE_TAG: Record<CodeLanguage, string> = { js: 'javascript', ts: 'typescript', python: 'python' };

/**
 * Feedback for an answer with no code in it (the seeds' `CodeEmpty`).
 *
 * @example
 * missingCodeFeedback('python')  // '**Error Detected:** No python code found. Always enclose …'
 */
export function missingCodeFeedback(language: CodeLanguage): string {
  return `**Error Detected:** No ${FENCE_TAG[language]} code found. Always enclose ${FENCE_TAG[language]} code in a triple-backtick code fence (\`\`\`${FENCE_TAG[language]}\\n ... \\n\`\`\`).`;
}

/**
 * The seeds' `aicodefixer_feedback` over a sandbox outcome: what went wrong, in the words a
 * model can act on — the kind of failure, the error message, the failing line quoted from the
 * code, the failing test, the tail of what was printed — truncated to `maxLength` (the middle of
 * a long message is cut, keeping its start and the end, where the cause usually is). A success
 * says so and, as in the seeds, asks for a challenging test when none were given.
 *
 * @example
 * codeFeedback({ ok: false, stdout: '', stderr: '', durationMs: 3, error: { kind: 'runtime', message: "NameError: name 'x' is not defined", line: 2 } }, { code: 'def f():\n    return x' })
 * // "**Error Detected:** NameError: name 'x' is not defined\n**Line 2:** `return x`"
 */
export function codeFeedback(outcome: CodeOutcome, opts: CodeFeedbackOptions = {}): string {
  const maxLength = opts.maxLength ?? 512;
  const parts: string[] = [];
  const error = outcome.error;
  if (!error) {
    parts.push(outcome.tests
      ? `Execution has been successful: ${outcome.tests.passed}/${outcome.tests.total} tests passed.`
      : 'Execution has been successful (no errors detected). Consider adding 1-2 challenging unit tests to improve the main function.');
  } else {
    switch (error.kind) {
      case 'syntax': parts.push(`**Parsing Error Detected:** ${error.message}`); break;
      case 'timeout': parts.push(`**Error Detected:** Timeout error. Your code took too long to execute (${error.message}).`); break;
      case 'memory': parts.push(`**Error Detected:** Out of memory: ${error.message}.`); break;
      case 'output': parts.push(`**Error Detected:** ${error.message}.`); break;
      case 'test': parts.push(`**Test Failed:** ${error.message}`); break;
      case 'sandbox': parts.push(`**The code could not be run:** ${error.message}`); break;
      default: parts.push(`**Error Detected:** ${error.message}`);
    }
    const line = error.line !== undefined ? opts.code?.split('\n')[error.line - 1]?.trim() : undefined;
    if (line) parts.push(`**Line ${error.line}:** \`${line}\``);
    if (outcome.tests) parts.push(`**Tests:** ${outcome.tests.passed}/${outcome.tests.total} passed.`);
  }
  const printed = (outcome.stdout + (outcome.stderr ? `\n${outcome.stderr}` : '')).trim();
  if (printed && error) parts.push(`**Output Captured:** ${tail(printed, 200)}`);
  return truncateMiddle(parts.join('\n'), maxLength);
}

function tail(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
}

/**
 * Cuts the middle of a long text so it fits `max` characters.
 *
 * @example
 * truncateMiddle('a'.repeat(100) + 'END', 20)  // 'aaaaaaaa … [cut] …END'-like, 20 characters at most
 */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = ' … ';
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep * 0.6);
  return `${text.slice(0, head)}${marker}${text.slice(text.length - (keep - head))}`;
}
