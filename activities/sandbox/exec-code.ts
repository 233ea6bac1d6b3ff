import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { execCodeInputSchema, type CodeError, type CodeOutcome, type ExecCodeInput } from '../../core/code/code-outcome';
import { enginePaths } from './engine-paths';
import { SANDBOX_CHILD_SOURCE } from './sandbox-child-source';
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
 * code does. Every run is a new child process (no state survives between runs), started with an
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
  let paths;
  try {
    paths = enginePaths();
  } catch (e) {
    return failed({ kind: 'sandbox', message: `the sandbox cannot start: an engine package is not installed (${(e as Error).message.split('\n')[0]})` }, 0);
  }
  const nonce = randomBytes(12).toString('hex');
  const args = ['--experimental-permission', ...paths.readable.map((d) => `--allow-fs-read=${d}/*`), '--max-old-space-size=256', '--no-warnings', '-e', SANDBOX_CHILD_SOURCE];
  const startedAt = Date.now();
  const child = spawn(process.execPath, args, { env: {}, cwd: '/', stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: false });
  return new Promise<CodeOutcome>((resolve) => {
    let settled = false;
    let out = '';
    let err = '';
    let readyAt: number | undefined;
    let baseRss = 0;
    let limitKind: 'timeout' | 'memory' | 'sandbox' | undefined;
    let limitMessage = '';
    const settle = (outcome: CodeOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(startTimer);
      clearTimeout(runTimer);
      clearInterval(memoryWatch);
      clearInterval(progress);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(outcome);
    };
    const stop = (kind: 'timeout' | 'memory' | 'sandbox', message: string) => {
      limitKind = kind;
      limitMessage = message;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop('sandbox', 'the run was cancelled');
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    const startTimer = setTimeout(() => stop('sandbox', `the sandbox cannot start: the ${job.language} engine did not load within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    let runTimer: NodeJS.Timeout | undefined;
    const progress = setInterval(() => options.onProgress?.(), 1_000);
    const memoryWatch = setInterval(() => {
      if (readyAt === undefined || child.pid === undefined) return;
      const rss = residentBytes(child.pid);
      if (rss !== undefined && rss - baseRss > job.memoryMb * 1024 * 1024) stop('memory', `the program used more than ${job.memoryMb} MB`);
    }, MEMORY_POLL_MS);
    const maxProtocolChars = 4 * job.maxOutputChars + 1_000_000;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.length > maxProtocolChars) return stop('sandbox', 'the sandbox wrote more than its protocol allows');
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (!line.startsWith(`${nonce} `)) continue;
        const msg = JSON.parse(line.slice(nonce.length + 1)) as { type: string; rss?: number; outcome?: CodeOutcome };
        if (msg.type === 'ready') {
          readyAt = Date.now();
          baseRss = msg.rss ?? 0;
          clearTimeout(startTimer);
          runTimer = setTimeout(() => stop('timeout', `the program ran longer than ${job.timeoutMs} ms`), job.timeoutMs + 250);
        } else if (msg.type === 'done' && msg.outcome) {
          settle(msg.outcome);
        }
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => { if (err.length < 4_000) err += chunk; });
    child.on('error', (e) => settle(failed({ kind: 'sandbox', message: `the sandbox cannot start: ${e.message}` }, Date.now() - startedAt)));
    child.on('exit', (code, signal) => {
      // A result line may still be in the pipe when the process is reported gone.
      setImmediate(() => {
        const ran = readyAt === undefined ? 0 : Date.now() - readyAt;
        if (limitKind) return settle(failed({ kind: limitKind, message: limitMessage }, ran));
        if (/out of memory|Allocation failed|heap limit/i.test(err)) return settle(failed({ kind: 'memory', message: `the program used more memory than the sandbox allows (${job.memoryMb} MB)` }, ran));
        const why = err.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
        settle(failed({ kind: 'sandbox', message: `the sandbox ended unexpectedly (${signal ?? `exit ${code}`})${why ? `: ${why.slice(0, 300)}` : ''}` }, ran));
      });
    });
    child.send({ ...job, code, testCode, nonce, paths: { pyodide: paths.pyodide, quickjs: paths.quickjs } });
  });
}

function failed(error: CodeError, durationMs: number): CodeOutcome {
  return { ok: false, stdout: '', stderr: '', error, durationMs };
}

function residentBytes(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
