import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { enginePaths } from './engine-paths';
import { SANDBOX_CHILD_SOURCE } from './sandbox-child-source';

export type Engine = 'js' | 'python';

/** A protocol message from a sandbox child. */
export type ChildMessage = { type: 'ready'; rss: number } | { type: 'done'; outcome: unknown };

/**
 * One sandbox child process: started with an empty environment under Node's permission model
 * (reads limited to the engine packages; no writes, child processes or worker threads), its
 * engine loading at once. It runs exactly one job, then exits.
 */
export class SandboxProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<number>;
  exited = false;
  stderr = '';
  private buffer = '';
  private listeners: Array<(m: ChildMessage) => void> = [];
  private exitListeners: Array<(code: number | null, signal: string | null) => void> = [];

  constructor(readonly engine: Engine) {
    const paths = enginePaths();
    const nonce = randomBytes(12).toString('hex');
    const boot = JSON.stringify({ engine, nonce, paths: { pyodide: paths.pyodide, quickjs: paths.quickjs } });
    const args = ['--experimental-permission', ...paths.readable.map((d) => `--allow-fs-read=${d}/*`), '--max-old-space-size=256', '--no-warnings', '-e', SANDBOX_CHILD_SOURCE, boot];
    this.child = spawn(process.execPath, args, { env: {}, cwd: '/', stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let resolveReady!: (rss: number) => void;
    let rejectReady!: (e: Error) => void;
    this.ready = new Promise<number>((res, rej) => { resolveReady = res; rejectReady = rej; });
    this.ready.catch(() => {});
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      if (this.buffer.length > 50_000_000) return this.kill();
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (!line.startsWith(`${nonce} `)) continue;
        const msg = JSON.parse(line.slice(nonce.length + 1)) as ChildMessage;
        if (msg.type === 'ready') resolveReady(msg.rss);
        for (const l of this.listeners) l(msg);
      }
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => { if (this.stderr.length < 4_000) this.stderr += chunk; });
    this.child.on('error', (e) => rejectReady(e));
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      rejectReady(new Error(`the sandbox process ended before its engine loaded (${signal ?? `exit ${code}`})`));
      // A result line may still be in the pipe when the process is reported gone.
      setImmediate(() => { for (const l of this.exitListeners) l(code, signal); });
    });
  }

  onMessage(fn: (m: ChildMessage) => void): void { this.listeners.push(fn); }
  onExit(fn: (code: number | null, signal: string | null) => void): void { this.exitListeners.push(fn); }

  send(job: unknown): void { this.child.send(job as never); }

  kill(): void { if (!this.exited) this.child.kill('SIGKILL'); }

  /** Resident memory of the child, from /proc. */
  rss(): number | undefined {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
      return kb ? Number(kb[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** A waiting spare must not keep the worker process alive. */
  setKeepAlive(on: boolean): void {
    const handles = [this.child, this.child.stdout, this.child.stderr, (this.child as unknown as { channel?: { ref(): void; unref(): void } }).channel];
    for (const h of handles) (on ? (h as { ref?(): void })?.ref?.() : (h as { unref?(): void })?.unref?.());
  }
}

const spares = new Map<Engine, SandboxProcess>();

/**
 * A sandbox process for `engine`: the waiting spare when there is one (its engine already
 * loaded, no job ever run in it), else a new one; then a new spare is started for the next run
 * (`GROVE_SANDBOX_SPARES=0` turns spares off). Spares hide the engine's start-up (Pyodide: ~1.5 s)
 * without sharing anything between runs: every process runs one job and exits.
 *
 * @example
 * const sandbox = takeSandbox('python');
 */
export function takeSandbox(engine: Engine): SandboxProcess {
  const spare = spares.get(engine);
  spares.delete(engine);
  const chosen = spare && !spare.exited ? spare : new SandboxProcess(engine);
  chosen.setKeepAlive(true);
  if (process.env.GROVE_SANDBOX_SPARES !== '0') {
    const next = new SandboxProcess(engine);
    next.setKeepAlive(false);
    next.onExit(() => { if (spares.get(engine) === next) spares.delete(engine); });
    spares.set(engine, next);
  }
  return chosen;
}

/** Stops the waiting spares (a worker shutting down; tests). */
export function closeSandboxSpares(): void {
  for (const s of spares.values()) s.kill();
  spares.clear();
}
process.once('exit', closeSandboxSpares);
