import { z } from 'zod';
import { CODE_LANGUAGES, type CodeOutcome } from '../../core/code/code-outcome';
import { codeFeedback } from '../../core/code/code-feedback';
import { defineTool } from '../tools/define-tool';
import { execCode } from './exec-code';

/**
 * What a model sees of a sandbox run: ok or the feedback (error, failing line, tests), then what
 * was printed, truncated — never more than ~2,000 characters, so a chatty program cannot flood
 * the conversation.
 *
 * @example
 * formatRunOutcome({ ok: true, stdout: '3\n', stderr: '', durationMs: 4 }) // 'ok (4 ms)\nstdout:\n3'
 */
export function formatRunOutcome(outcome: CodeOutcome): string {
  const head = outcome.ok ? `ok (${outcome.durationMs} ms)${outcome.tests ? `, ${outcome.tests.passed}/${outcome.tests.total} tests passed` : ''}` : codeFeedback(outcome, { maxLength: 1_000 });
  const printed = [outcome.stdout && `stdout:\n${outcome.stdout}`, outcome.stderr && `stderr:\n${outcome.stderr}`].filter(Boolean).join('\n');
  const body = printed.length > 1_000 ? `${printed.slice(0, 1_000)}\n… (${printed.length - 1_000} more characters)` : printed;
  return [head, outcome.ok && outcome.result !== undefined ? `result: ${JSON.stringify(outcome.result)}` : '', body].filter(Boolean).join('\n').trim();
}

/**
 * grove's built-in `run_code` tool for the search agents: runs code the model wrote in the
 * sandbox (QuickJS or Pyodide, a fresh locked-down process per call; 5 s, 128 MB) and answers
 * with what happened. Every grove worker serves it; a run offers it with `tools: ["run_code"]`.
 *
 * @example
 * { "algorithm": "mcts", "tools": ["run_code"], "evaluator": { "name": "code-tests", "options": { "language": "python", "testCode": "..." } } }
 */
export const runCodeTool = defineTool({
  name: 'run_code',
  description: 'Runs a program in a sandbox (no network, no files, 5 s) and returns its output or error. Use it to test your code before answering.',
  parameters: z.object({
    language: z.enum(CODE_LANGUAGES).describe('js, ts or python'),
    code: z.string().describe('The whole program; print what you want to see.'),
  }),
  run: ({ language, code }, ctx) => execCode({ language, code }, { signal: ctx.signal }),
  formatOutput: formatRunOutcome,
});
