import type { CodeError, CodeOutcome } from '../../core/code/code-outcome';
import type { SandboxProcess } from './sandbox-process';

/** How long an engine may take to load before the sandbox reports that it could not start. */
const START_TIMEOUT_MS = 60_000;
/** How often the children's resident memory is read. */
const MEMORY_POLL_MS = 25;

export interface RunLimits {
  timeoutMs: number;
  memoryMb: number;
  maxOutputChars: number;
}

export interface RunHooks {
  /** Aborts the run: the children are killed at once (an activity's cancellation). */
  signal?: AbortSignal;
  /** Called while the run waits (an activity's heartbeat). */
  onProgress?: () => void;
}

/** What a run ends with before grove adds what was printed and how long it took. */
export type RunEnd = Omit<CodeOutcome, 'stdout' | 'stderr' | 'durationMs' | 'layers'>;

/**
 * The limits of one sandbox run over its child processes, enforced by grove from outside them —
 * nothing a child says can stretch them: wall time from the moment the job is sent (the engines
 * are loaded by then), resident memory above each child's loaded baseline read from /proc,
 * characters printed (what the children write to stdout/stderr, in order of arrival), and
 * cancellation. The run ends exactly once; every child is killed when it does.
 *
 * @example
 * const run = new SandboxRun([proc], limits, hooks);
 * await run.whenReady();
 * run.startClock();
 * proc.start(job);
 * return run.result;
 */
export class SandboxRun {
  readonly result: Promise<CodeOutcome>;
  stdout = '';
  stderr = '';
  settled = false;
  private resolve!: (o: CodeOutcome) => void;
  private startedAt: number | undefined;
  private timers: NodeJS.Timeout[] = [];
  private limit: { kind: CodeError['kind']; message: string } | undefined;

  constructor(private readonly procs: SandboxProcess[], private readonly limits: RunLimits, hooks: RunHooks = {}) {
    this.result = new Promise((resolve) => { this.resolve = resolve; });
    const onAbort = () => this.stop('sandbox', 'the run was cancelled');
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    if (hooks.signal?.aborted) onAbort();
    this.result.then(() => hooks.signal?.removeEventListener('abort', onAbort));
    this.timers.push(setInterval(() => hooks.onProgress?.(), 1_000));
    this.timers.push(setInterval(() => this.watchMemory(), MEMORY_POLL_MS));
    for (const proc of procs) proc.onOutput((stream, text) => this.print(stream, text));
  }

  /** Resolves when every child's engine has loaded; ends the run (kind `sandbox`) if one cannot. */
  async whenReady(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the engine did not load within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    });
    try {
      await Promise.race([Promise.all(this.procs.map((p) => p.ready)), late]);
      return !this.settled;
    } catch (err) {
      this.end({ ok: false, error: { kind: 'sandbox', message: `the sandbox cannot start: ${(err as Error).message}` } });
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The job is sent: wall time counts from now. */
  startClock(): void {
    this.startedAt = Date.now();
    this.timers.push(setTimeout(() => this.stop('timeout', `the program ran longer than ${this.limits.timeoutMs} ms`), this.limits.timeoutMs + 250));
  }

  /** A limit was hit (or the run cancelled): the children are killed and the run ends with `kind`. */
  stop(kind: CodeError['kind'], message: string, extra: Partial<RunEnd> = {}): void {
    if (this.settled) return;
    this.limit ??= { kind, message };
    this.end({ ok: false, error: { kind: this.limit.kind, message: this.limit.message }, ...extra });
  }

  /** The limit that was hit, if one was: a child dying afterwards is its consequence, not news. */
  get limitHit(): boolean {
    return this.limit !== undefined;
  }

  end(outcome: RunEnd): void {
    if (this.settled) return;
    this.settled = true;
    for (const t of this.timers) clearTimeout(t);
    for (const p of this.procs) p.kill();
    const durationMs = this.startedAt === undefined ? 0 : Date.now() - this.startedAt;
    this.resolve({ ...bounded(outcome, this.limits.maxOutputChars), stdout: this.stdout, stderr: this.stderr, durationMs } as CodeOutcome);
  }

  private print(stream: 'out' | 'err', text: string): void {
    if (this.settled) return;
    const key = stream === 'out' ? 'stdout' : 'stderr';
    const room = this.limits.maxOutputChars - this[key].length;
    if (text.length > room) {
      this[key] += text.slice(0, Math.max(0, room));
      this.stop('output', `the program printed more than ${this.limits.maxOutputChars} characters to std${stream}; output truncated and the run stopped`);
      return;
    }
    this[key] += text;
  }

  private watchMemory(): void {
    if (this.startedAt === undefined || this.settled) return;
    for (const p of this.procs) {
      const rss = p.rss();
      if (rss !== undefined && rss - p.baseRss > this.limits.memoryMb * 1024 * 1024) {
        this.stop('memory', `the program used more than ${this.limits.memoryMb} MB`);
        return;
      }
    }
  }
}

/** The longest error message an outcome carries (it goes back to the model and into history). */
const MAX_MESSAGE_CHARS = 4_000;

/**
 * An outcome whose every field is bounded: an error message the code chose (a 10 MB exception)
 * is cut to {@link MAX_MESSAGE_CHARS}, and a result whose JSON is longer than the output limit is
 * replaced by its cut JSON text — outcomes travel into workflow history.
 */
function bounded(outcome: RunEnd, maxOutputChars: number): RunEnd {
  const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`);
  const out: RunEnd = { ...outcome };
  if (out.error) out.error = { ...out.error, message: cut(out.error.message, MAX_MESSAGE_CHARS), ...(out.error.test ? { test: cut(out.error.test, 300) } : {}) };
  if (out.result !== undefined) {
    let json: string;
    try {
      json = JSON.stringify(out.result) ?? '';
    } catch {
      json = String(out.result);
    }
    if (json.length > maxOutputChars) out.result = cut(json, maxOutputChars);
  }
  return out;
}
