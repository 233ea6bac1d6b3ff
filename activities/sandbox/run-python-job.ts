import { z } from 'zod';
import type { CodeError } from '../../core/code/code-outcome';
import { takeSandbox, type SandboxProcess } from './sandbox-process';
import { SandboxRun, type RunHooks, type RunLimits } from './sandbox-run';

const PyError = z.object({ kind: z.string(), message: z.string(), line: z.number().int().optional(), trace: z.string().optional() }).passthrough();
const Loaded = z.object({ error: PyError.optional(), exit: z.number().int().optional(), names: z.string().optional() });
const TestsDone = z.object({
  tally: z.object({ passed: z.number().int().min(0), total: z.number().int().min(0), failures: z.array(z.object({ message: z.string(), test: z.string().nullish() })) }),
  completed: z.boolean(),
  error: PyError.optional(),
});

export interface PythonJob {
  code: string;
  testCode?: string;
  files?: Record<string, string>;
}

/**
 * Runs Python in the sandbox. The code runs in one Pyodide process; its tests, when there are
 * any, in another, which reaches the code only through calls grove relays — plain data in, plain
 * data out (see child/py-harness-source.ts). The verdict is the tests process's tally, read on
 * its own channel: nothing the code does in its process can write there.
 *
 * @example
 * const outcome = await runPythonJob({ code: 'def add(a, b):\n    return a + b', testCode: 'assert add(1, 2) == 3' }, limits);
 */
export async function runPythonJob(job: PythonJob, limits: RunLimits, hooks: RunHooks = {}) {
  const code = takeSandbox('python', 'code');
  const tests = job.testCode !== undefined ? takeSandbox('python', 'tests') : undefined;
  const run = new SandboxRun(tests ? [code, tests] : [code], limits, hooks);
  const notRun = tests ? { tests: { passed: 0, total: 0, completed: false } } : {};
  let callPending = false;
  let codeLoaded = false;
  // The code's process is the code's: a message grove cannot read from it is the code tampering (runtime).
  // The tests' process runs grove's harness and the user's tests: a broken message from it is grove's (sandbox).
  const unreadable = (who: 'code' | 'tests') => run.end({ ok: false, error: { kind: who === 'code' ? 'runtime' : 'sandbox', message: `the ${who} process sent a message grove cannot read${who === 'code' ? ' (the code tampered with it)' : ''}` }, ...notRun });

  code.onMessage((m) => {
    if (m.t === 'loaded' && !codeLoaded) {
      codeLoaded = true;
      const loaded = Loaded.safeParse(parseData(m.data));
      if (!loaded.success) return unreadable('code');
      const { error, exit, names } = loaded.data;
      if (error) return run.end({ ok: false, error: codeError(error), ...notRun });
      if (exit !== undefined && !tests) return run.end(exit === 0 ? { ok: true } : { ok: false, error: { kind: 'runtime', message: `the program exited with status ${exit}` } });
      if (exit !== undefined) return run.end({ ok: false, error: { kind: 'runtime', message: `the code exited (status ${exit}) before the tests ran: the tests did not run` }, ...notRun });
      if (!tests) return run.end({ ok: true });
      tests.start({ t: 'job', role: 'tests', testCode: job.testCode, files: job.files, names: names ?? '{}' });
    } else if (m.t === 'reply' && callPending && typeof m.data === 'string') {
      callPending = false;
      tests?.send({ t: 'reply', data: m.data });
    }
  });
  // The code's process ended (an exit, a crash of the engine, a kill): before loading, that is the
  // run's outcome; during a call, the tests hear it and finish as incomplete; between calls, the
  // next call hears it.
  let codeEnded = false;
  const endCode = (status: number | null, crash?: string) => {
    if (codeEnded || run.settled || run.limitHit) return;
    codeEnded = true;
    if (callPending) {
      callPending = false;
      tests?.send({ t: 'reply', data: JSON.stringify({ exit: status ?? -1 }) });
      return;
    }
    if (tests && codeLoaded) return;
    if (!tests && status === 0 && !crash) return run.end({ ok: true });
    run.end({ ok: false, error: exitError(code, status, Boolean(tests), crash), ...notRun });
  };
  code.onMessage((m) => { if (m.t === 'crash') endCode(typeof m.exit === 'number' ? m.exit : null, m.exit === undefined ? String(m.message ?? '') : undefined); });
  code.onExit((status) => endCode(status));

  tests?.onMessage((m) => {
    if (m.t === 'call' && typeof m.data === 'string') {
      if (codeEnded || code.exited) return tests.send({ t: 'reply', data: JSON.stringify({ exit: code.exitCode ?? -1 }) });
      callPending = true;
      code.send({ t: 'call', data: m.data });
    } else if (m.t === 'done') {
      const done = TestsDone.safeParse(parseData(m.data));
      if (!done.success) return unreadable('tests');
      const { tally, completed, error } = done.data;
      const counts = { passed: tally.passed, total: tally.total, completed };
      if (error) return run.end({ ok: false, error: codeError(error), tests: counts });
      const first = tally.failures[0];
      if (first) {
        const more = tally.failures.length > 1 ? ` (and ${tally.failures.length - 1} more failing)` : '';
        return run.end({ ok: false, error: { kind: 'test', message: first.message + more, ...(first.test ? { test: first.test } : {}) }, tests: counts });
      }
      if (!completed) return run.end({ ok: false, error: { kind: 'runtime', message: 'the tests did not run to their end' }, tests: counts });
      run.end({ ok: true, tests: counts });
    }
  });
  tests?.onMessage((m) => {
    if (m.t === 'crash') run.end({ ok: false, error: { kind: 'runtime', message: `the tests' process crashed (${String(m.message ?? '').slice(0, 300)}): the tests did not complete` }, tests: { passed: 0, total: 0, completed: false } });
  });
  tests?.onExit((status, signal) => {
    if (run.settled || run.limitHit) return;
    run.end({ ok: false, error: { kind: 'runtime', message: `the tests' process ended before reporting (${signal ?? `exit ${status}`}): the tests did not complete` }, tests: { passed: 0, total: 0, completed: false } });
  });

  if (await run.whenReady()) {
    run.startClock();
    code.start({ t: 'job', role: 'code', code: job.code, files: job.files });
  }
  return run.result;
}

function parseData(data: unknown): unknown {
  if (typeof data !== 'string') return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

function codeError(e: z.infer<typeof PyError>): CodeError {
  const kinds = ['syntax', 'runtime', 'test', 'timeout', 'memory', 'output', 'sandbox'] as const;
  const kind = (kinds as readonly string[]).includes(e.kind) ? (e.kind as CodeError['kind']) : 'runtime';
  return { kind, message: e.trace ? `${e.message}\n${e.trace}` : e.message, ...(e.line !== undefined ? { line: e.line } : {}) };
}

function exitError(proc: SandboxProcess, status: number | null, withTests: boolean, crash?: string): CodeError {
  if (proc.channelFault) return { kind: 'runtime', message: `the program was stopped: ${proc.channelFault}` };
  if (/out of memory|Allocation failed|heap limit/i.test(proc.startError + (crash ?? ''))) return { kind: 'memory', message: 'the program used more memory than the sandbox allows' };
  const ended = crash ? `the program crashed its engine (${crash.slice(0, 300)})` : `the program ended its process (${status === null ? 'killed' : `exit ${status}`})`;
  return { kind: 'runtime', message: withTests ? `${ended} before the tests ran: the tests did not run` : ended };
}
