import { z } from 'zod';
import { codeErrorSchema } from '../../core/code/code-outcome';
import { takeSandbox } from './sandbox-process';
import { SandboxRun, type RunEnd, type RunHooks, type RunLimits } from './sandbox-run';

/** What the JavaScript child reports: its realms cannot reach the channel, so this is grove's own account. */
const ChildOutcome = z.object({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: codeErrorSchema.optional(),
  tests: z.object({ passed: z.number().int(), total: z.number().int(), completed: z.boolean() }).optional(),
});

/**
 * Runs JavaScript (TypeScript already transpiled) in one sandbox child: the code in one QuickJS
 * runtime, its tests in another (see child/quickjs-source.ts).
 *
 * @example
 * const outcome = await runJsJob({ code: '6 * 7' }, { timeoutMs: 5_000, memoryMb: 128, maxOutputChars: 20_000 });
 */
export async function runJsJob(job: { code: string; testCode?: string }, limits: RunLimits, hooks: RunHooks = {}) {
  const proc = takeSandbox('js');
  const run = new SandboxRun([proc], limits, hooks);
  proc.onMessage((m) => {
    // Once the job is running, what breaks is the code's doing (a deep value, a hooked intrinsic): kind runtime, not worth retrying.
    if (m.t === 'crash') return run.end({ ok: false, error: { kind: 'runtime', message: `the program broke its engine: ${String(m.message ?? '').slice(0, 300)}` } });
    if (m.t !== 'done') return;
    const parsed = ChildOutcome.safeParse(m.outcome);
    if (!parsed.success) return run.end({ ok: false, error: { kind: 'runtime', message: 'the program made the sandbox send an outcome grove cannot read' } });
    run.end(parsed.data as RunEnd);
  });
  proc.onExit((code, signal) => {
    if (run.settled || run.limitHit) return;
    const why = proc.startError.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
    if (/out of memory|Allocation failed|heap limit/i.test(run.stderr + proc.startError)) return run.stop('memory', `the program used more memory than the sandbox allows (${limits.memoryMb} MB)`);
    if (proc.channelFault) return run.end({ ok: false, error: { kind: 'runtime', message: `the program was stopped: ${proc.channelFault}` } });
    run.end({ ok: false, error: { kind: 'runtime', message: `the sandbox process ended while running the program (${signal ?? `exit ${code}`})${why ? `: ${why.slice(0, 300)}` : ''}` } });
  });
  if (await run.whenReady()) {
    run.startClock();
    proc.start({ t: 'job', ...job, ...limits });
  }
  return run.result;
}
