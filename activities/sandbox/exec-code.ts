import { execCodeInputSchema, type CodeError, type CodeOutcome, type ExecCodeInput } from '../../core/code/code-outcome';
import { takeSandbox, type SandboxProcess } from './sandbox-process';
import { transpileTs } from './transpile-ts';

/** How long an engine may take to load before the sandbox reports that it could not start. */
const START_TIMEOUT_MS = 60_000;
/** How often the child's resident memory is read. */
const MEMORY_POLL_MS = 25;

export interface ExecOptions {
  /** Aborts the run: the child is killed at once (an activity's cancellation). */
  signal?: AbortSignal;
  /** Called while the run waits (an activity's heartbeat). */
  onProgress?: () => void;
}

/**
 * Runs generated code in a fresh sandbox and says what happened — never throws for anything the
 * code does. Every run is a new child process (no state survives between runs; a spare, its engine
 * already loaded and no job ever run in it, waits for the next run — see `takeSandbox`), started with an
 * empty environment under Node's permission model (reads limited to the engine packages; no
 * writes, child processes or worker threads), running QuickJS (JavaScript; TypeScript is
 * transpiled first) or Pyodide (Python), both WebAssembly, with every host bridge cut before the
 * code runs. The wall-time limit starts once the engine is loaded; memory is capped by QuickJS
 * itself and, for Python, by watching the child's resident memory.
 *
 * @example
 * const out = await execCode({ language: 'python', code: 'def add(a, b): return a - b', testCode: 'assert add(1, 2) == 3' });
 * // out.ok === false, out.error.kind === 'test', out.tests = { passed: 0, total: 1 }
 */
export async function execCode(input: ExecCodeInput, options: ExecOptions = {}): Promise<CodeOutcome> {
  const job = execCodeInputSchema.parse(input);
  let code = job.code;
  let testCode = job.testCode;
  if (job.language === 'ts') {
    const main = transpileTs(code);
    if ('error' in main) return failed(main.error, 0);
    code = main.code;
    if (testCode !== undefined) {
      const tests = transpileTs(testCode, 'tests.ts');
      if ('error' in tests) return failed({ kind: 'syntax', message: `in the tests: ${tests.error.message}` }, 0);
      testCode = tests.code;
    }
  }
  let sandbox: SandboxProcess;
  try {
    sandbox = takeSandbox(job.language === 'python' ? 'python' : 'js');
  } catch (e) {
    return failed({ kind: 'sandbox', message: `the sandbox cannot start: ${(e as Error).message.split('\n')[0]}` }, 0);
  }
  return new Promise<CodeOutcome>((resolve) => {
    let settled = false;
    let runningSince: number | undefined;
    let baseRss = 0;
    let limitKind: 'timeout' | 'memory' | 'sandbox' | undefined;
    let limitMessage = '';
    let runTimer: NodeJS.Timeout | undefined;
    const settle = (outcome: CodeOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(startTimer);
      clearTimeout(runTimer);
      clearInterval(memoryWatch);
      clearInterval(progress);
      options.signal?.removeEventListener('abort', onAbort);
      sandbox.kill();
      resolve(outcome);
    };
    const stop = (kind: 'timeout' | 'memory' | 'sandbox', message: string) => {
      limitKind = kind;
      limitMessage = message;
      sandbox.kill();
    };
    const onAbort = () => stop('sandbox', 'the run was cancelled');
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    const startTimer = setTimeout(() => stop('sandbox', `the sandbox cannot start: the ${job.language} engine did not load within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const progress = setInterval(() => options.onProgress?.(), 1_000);
    const memoryWatch = setInterval(() => {
      if (runningSince === undefined) return;
      const rss = sandbox.rss();
      if (rss !== undefined && rss - baseRss > job.memoryMb * 1024 * 1024) stop('memory', `the program used more than ${job.memoryMb} MB`);
    }, MEMORY_POLL_MS);
    sandbox.onMessage((msg) => {
      if (msg.type === 'done') settle(msg.outcome as CodeOutcome);
    });
    sandbox.onExit((code, signal) => {
      const ran = runningSince === undefined ? 0 : Date.now() - runningSince;
      if (limitKind) return settle(failed({ kind: limitKind, message: limitMessage }, ran));
      const err = sandbox.stderr;
      if (/out of memory|Allocation failed|heap limit/i.test(err)) return settle(failed({ kind: 'memory', message: `the program used more memory than the sandbox allows (${job.memoryMb} MB)` }, ran));
      const why = err.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
      settle(failed({ kind: 'sandbox', message: `the sandbox ended unexpectedly (${signal ?? `exit ${code}`})${why ? `: ${why.slice(0, 300)}` : ''}` }, ran));
    });
    sandbox.ready.then((rss) => {
      if (settled) return;
      clearTimeout(startTimer);
      baseRss = rss;
      runningSince = Date.now();
      runTimer = setTimeout(() => stop('timeout', `the program ran longer than ${job.timeoutMs} ms`), job.timeoutMs + 250);
      sandbox.send({ ...job, code, testCode });
    }, (e: Error) => settle(failed({ kind: 'sandbox', message: `the sandbox cannot start: ${e.message}` }, 0)));
  });
}

function failed(error: CodeError, durationMs: number): CodeOutcome {
  return { ok: false, stdout: '', stderr: '', error, durationMs };
}

