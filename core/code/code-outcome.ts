import { z } from 'zod';

/**
 * What running a piece of generated code in grove's sandbox produced. The shape is shared by the
 * sandbox activity (`groveExecCode`), `grove exec`, the code fixer's feedback and the code
 * evaluator, so a fixer never needs to know which engine ran the code.
 */
export const CODE_LANGUAGES = ['js', 'ts', 'python'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/**
 * Why a run did not succeed: `syntax` (did not parse/compile), `runtime` (threw), `test` (an
 * assertion or given test failed), `timeout` (wall-time limit), `memory` (memory limit),
 * `output` (stdout/stderr over the output limit), `sandbox` (the engine could not start or crashed).
 */
export const CODE_ERROR_KINDS = ['syntax', 'runtime', 'test', 'timeout', 'memory', 'output', 'sandbox'] as const;
export type CodeErrorKind = (typeof CODE_ERROR_KINDS)[number];

export const codeErrorSchema = z.object({
  kind: z.enum(CODE_ERROR_KINDS).describe('syntax, runtime, test (a failed assertion), timeout, memory, output (too much printed) or sandbox (could not start).'),
  message: z.string().describe('What went wrong, as the engine or the test said it.'),
  /** 1-based line in the submitted code (not the test code) when the engine reports one. */
  line: z.number().int().optional().describe('The line of the submitted code, when known.'),
  /** The name of the failing test, when a test failed. */
  test: z.string().optional().describe('The failing test, when it has a name.'),
});
export type CodeError = z.infer<typeof codeErrorSchema>;

export const codeOutcomeSchema = z.object({
  ok: z.boolean().describe('The code ran without error and every test passed.'),
  /** The value of the last expression (JSON-safe, stringified if not), when the engine gives one. */
  result: z.unknown().optional().describe('The value of the last expression (JavaScript), when there is one.'),
  stdout: z.string().describe('What the code printed (capped).'),
  stderr: z.string().describe('What the code printed to stderr (capped).'),
  error: codeErrorSchema.optional().describe('Why it did not succeed.'),
  durationMs: z.number().describe('Time spent running the code in the engine.'),
  /** Tests run and passed, when test code was given (for the code evaluator). */
  tests: z
    .object({
      passed: z.number().int().describe('Assertions that held.'),
      total: z.number().int().describe('Assertions run.'),
      completed: z.boolean().optional().describe('The test code ran to its end (false: it stopped early — an exit, an uncaught error, a limit — so the tests did not all run).'),
    })
    .optional()
    .describe('Assertions run and passed, when tests were given.'),
  /** The isolation layers that were active for this run (see docs/sandbox.md). */
  layers: z.array(z.string()).optional().describe('The isolation layers active for this run, e.g. wasm, host-globals-removed, node-permissions, empty-env, network-namespace, filesystem-jail, unprivileged-user, tests-apart.'),
});
export type CodeOutcome = z.infer<typeof codeOutcomeSchema>;

/**
 * The score of an outcome for a search (the `code-tests` evaluator; the code fixer's best
 * attempt): 1 only when the run is `ok` (ran without error and every test passed), else the
 * fraction of assertions that held — counting one more, failing, assertion when the tests did
 * not run to their end, so code that stops the tests early (an exit, a crash, a limit) can never
 * reach 1 by hiding the assertions it would fail.
 *
 * @example
 * testScore({ ok: false, stdout: '', stderr: '', durationMs: 1, tests: { passed: 1, total: 1, completed: false } }) // 0.5
 */
export function testScore(outcome: CodeOutcome): number {
  if (outcome.ok) return 1;
  const tests = outcome.tests;
  if (!tests || tests.total <= 0) return 0;
  const unseen = tests.completed === false || tests.passed >= tests.total ? 1 : 0;
  return tests.passed / (tests.total + unseen);
}

export const execCodeInputSchema = z.object({
  language: z.enum(CODE_LANGUAGES),
  code: z.string().max(200_000, 'code: at most 200,000 characters'),
  /** Test code run after `code` in the same sandbox; a failing assertion gives kind `test`. */
  testCode: z.string().max(200_000).optional(),
  /** Files seeded into the sandbox's virtual file system (path → contents). */
  files: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().min(10).max(600_000).default(5_000),
  memoryMb: z.number().int().min(8).max(4_096).default(128),
  /** Caps on captured stdout/stderr (characters each). */
  maxOutputChars: z.number().int().min(100).max(10_000_000).default(20_000),
});
export type ExecCodeInput = z.input<typeof execCodeInputSchema>;
