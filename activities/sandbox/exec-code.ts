import { execCodeInputSchema, type CodeError, type CodeOutcome, type ExecCodeInput } from '../../core/code/code-outcome';
import { enginePaths } from './engine-paths';
import { runJsJob } from './run-js-job';
import { runPythonJob } from './run-python-job';
import { sandboxLayers } from './sandbox-layers';
import { sandboxJail } from './sandbox-jail';
import type { RunHooks } from './sandbox-run';
import { transpileTs } from './transpile-ts';

export type ExecOptions = RunHooks;

/**
 * Runs generated code in a fresh sandbox and says what happened — never throws for anything the
 * code does. Every run gets new child processes (a spare, its engine already loaded and no job
 * ever run in it, waits for the next run — see `takeSandbox`), each started with an empty
 * environment under Node's permission model and, where the machine allows, inside a jail (no
 * network, no host files, an unprivileged user — see `sandboxJail`), running QuickJS
 * (JavaScript; TypeScript is transpiled first) or Pyodide (Python), both WebAssembly. Tests run
 * apart from the code (another QuickJS runtime; for Python another process) and reach it only
 * through plain-data calls, so the code can neither rewrite them nor fake their tally. The
 * outcome's `layers` says which isolation layers were active. It throws one thing: a
 * non-retryable `GroveEngineMissing` when the language's engine (`quickjs-emscripten`, `pyodide`)
 * is not installed — the worker's setup, not the code, is at fault.
 *
 * @example
 * const out = await execCode({ language: 'python', code: 'def add(a, b): return a - b', testCode: 'assert add(1, 2) == 3' });
 * // out.ok === false, out.error.kind === 'test', out.tests = { passed: 0, total: 1, completed: true }
 */
export async function execCode(input: ExecCodeInput, options: ExecOptions = {}): Promise<CodeOutcome> {
  const job = execCodeInputSchema.parse(input);
  enginePaths(job.language === 'python' ? 'python' : 'js');
  let code = job.code;
  let testCode = job.testCode;
  if (job.language !== 'python') {
    const typescript = job.language === 'ts';
    const main = transpileTs(code, typescript ? 'solution.ts' : 'solution.js', typescript);
    if ('error' in main) return failed(main.error);
    code = main.code;
    if (testCode !== undefined) {
      const tests = transpileTs(testCode, typescript ? 'tests.ts' : 'tests.js', typescript);
      if ('error' in tests) return failed({ kind: 'syntax', message: `in the tests: ${tests.error.message}` });
      testCode = tests.code;
    }
  }
  const jail = sandboxJail();
  if (jail.required && !jail.available) {
    return failed({ kind: 'sandbox', message: `the sandbox jail is required (GROVE_SANDBOX_JAIL=required) but cannot be made: ${jail.reason}` });
  }
  const limits = { timeoutMs: job.timeoutMs, memoryMb: job.memoryMb, maxOutputChars: job.maxOutputChars };
  const layers = sandboxLayers(job.language, testCode !== undefined);
  try {
    const outcome = job.language === 'python'
      ? await runPythonJob({ code, testCode, files: job.files }, limits, options)
      : await runJsJob({ code, testCode }, limits, options);
    return { ...checkedNothing(outcome, testCode !== undefined), layers };
  } catch (err) {
    return { ...failed({ kind: 'sandbox', message: `the sandbox cannot start: ${(err as Error).message.split('\n')[0]}` }), layers };
  }
}

/**
 * Tests that ran to their end without a single assertion checked nothing (HumanEval's `test`
 * defines `check(candidate)` but does not call it; a loop the code emptied): that is no pass.
 */
function checkedNothing(outcome: CodeOutcome, withTests: boolean): CodeOutcome {
  if (!withTests || !outcome.ok || (outcome.tests && outcome.tests.total > 0)) return outcome;
  return { ...outcome, ok: false, error: { kind: 'test', message: 'the tests ran but checked nothing: no assertion ran (call your check function; a loop over what the code returns may be empty)' } };
}

function failed(error: CodeError): CodeOutcome {
  return { ok: false, stdout: '', stderr: '', error, durationMs: 0 };
}
