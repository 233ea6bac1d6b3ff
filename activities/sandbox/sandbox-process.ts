import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { dirname } from 'node:path';
import { enginePaths, type Engine } from './engine-paths';
import { pyodideSnapshot } from './pyodide-snapshot';
import { SANDBOX_CHILD_SOURCE } from './child/child-source';
import { jobPid, sandboxJail, type SandboxRole } from './sandbox-jail';

export type { Engine };

/** A message from a sandbox child on its channel (fd 3): `ready`, then per role `done`, `loaded`, `call` or `reply`. */
export interface ChildMessage {
  t: string;
  [key: string]: unknown;
}

/** The longest line a child may write on its channel (a reply carrying a big value, the tests' tally). */
const MAX_LINE_CHARS = 8_000_000;
/** All a child may write on its channel in one run. */
const MAX_CHANNEL_CHARS = 64_000_000;
/** Lines that are no message of the protocol before grove stops listening to a child. */
const MAX_STRAY_LINES = 16;

/**
 * One sandbox child process: Node under its permission model (reads limited to the engine
 * packages; no writes, child processes or worker threads), with an empty environment, inside
 * the jail when the machine allows one (see `sandboxJail`), its engine loading at once. It runs
 * one job, then exits.
 *
 * Its channel to grove is a pipe on fd 3 carrying JSON lines; what it prints goes to its own
 * stdout and stderr, which grove reads as the program's output and nothing else — so nothing
 * the program prints can be taken for a message.
 */
export class SandboxProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  /** Resident memory when the engine had loaded: limits count from here. */
  baseRss = 0;
  exited = false;
  exitCode: number | null = null;
  /** What Node itself wrote to stderr before the job (start-up failures). */
  startError = '';
  /** The unfinished line: its chunks (a long line is joined once, not re-scanned per chunk). */
  private partial: string[] = [];
  private partialLength = 0;
  private channelChars = 0;
  private strayLines = 0;
  /** Set when the child broke the protocol (too much, too long, not messages): the code under it is to blame. */
  channelFault: string | undefined;
  private channel: Readable;
  private input: Writable;
  private messageListeners: Array<(m: ChildMessage) => void> = [];
  private exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  private outputListeners: Array<(stream: 'out' | 'err', text: string) => void> = [];
  private started = false;
  /** The process that runs the job (in a PID namespace, the child of the one grove spawned). */
  private pid: number | undefined;

  constructor(readonly engine: Engine, readonly role: SandboxRole = 'code') {
    const paths = enginePaths(engine);
    const snapshot = engine === 'python' ? pyodideSnapshot() : undefined;
    const readable = snapshot ? [...paths.readable, dirname(snapshot)] : paths.readable;
    const boot = JSON.stringify({ engine, paths: engine === 'python' ? { pyodide: paths.entry, snapshot } : { quickjs: paths.entry } });
    const nodeArgs = ['--experimental-permission', ...readable.map((d) => `--allow-fs-read=${d}/*`), '--max-old-space-size=256', '--no-warnings', '-e', SANDBOX_CHILD_SOURCE, boot];
    const command = sandboxJail().wrap(nodeArgs, readable, role);
    this.child = spawn(command.file, command.args, { env: {}, cwd: '/', stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    this.channel = this.child.stdio[3] as Readable;
    this.input = this.child.stdio[3] as Writable;
    let resolveReady!: () => void;
    let rejectReady!: (e: Error) => void;
    this.ready = new Promise<void>((res, rej) => { resolveReady = res; rejectReady = rej; });
    this.ready.catch(() => {});
    this.channel.setEncoding('utf8');
    this.channel.on('data', (chunk: string) => this.read(chunk, resolveReady));
    this.channel.on('error', () => {});
    for (const [stream, name] of [[this.child.stdout!, 'out'], [this.child.stderr!, 'err']] as const) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (!this.started) {
          if (name === 'err' && this.startError.length < 4_000) this.startError += chunk;
          return;
        }
        for (const l of this.outputListeners) l(name, chunk);
      });
    }
    this.child.on('error', (e) => rejectReady(e));
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      this.exitCode = code;
      const why = this.startError.trim().split('\n').filter(Boolean).slice(-1)[0];
      rejectReady(new Error(`the sandbox process ended before its engine loaded (${signal ?? `exit ${code}`})${why ? `: ${why.slice(0, 300)}` : ''}`));
      // The last messages may still be in the pipe when the process is reported gone.
      setImmediate(() => { for (const l of this.exitListeners) l(code, signal); });
    });
  }

  /** Splits the channel into lines, each read once; a child that floods it or speaks no protocol is stopped. */
  private read(chunk: string, resolveReady: () => void): void {
    if (this.channelFault) return;
    this.channelChars += chunk.length;
    if (this.channelChars > MAX_CHANNEL_CHARS) return this.fault(`it wrote more than ${MAX_CHANNEL_CHARS} characters to grove's channel`);
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      const line = this.partial.join('') + chunk.slice(start, nl);
      this.partial = [];
      this.partialLength = 0;
      start = nl + 1;
      this.handleLine(line, resolveReady);
      if (this.channelFault) return;
    }
    const rest = chunk.slice(start);
    if (rest) {
      this.partial.push(rest);
      this.partialLength += rest.length;
      if (this.partialLength > MAX_LINE_CHARS) this.fault(`it wrote a line of more than ${MAX_LINE_CHARS} characters to grove's channel`);
    }
  }

  private handleLine(line: string, resolveReady: () => void): void {
    let msg: ChildMessage | undefined;
    try {
      msg = JSON.parse(line) as ChildMessage;
    } catch {
      msg = undefined;
    }
    if (!msg || typeof msg !== 'object' || typeof msg.t !== 'string') {
      if (++this.strayLines > MAX_STRAY_LINES) this.fault("it wrote lines to grove's channel that are no messages");
      return;
    }
    if (msg.t === 'ready' && !this.started) {
      this.baseRss = this.rss() ?? 0;
      resolveReady();
      return;
    }
    for (const l of this.messageListeners) l(msg);
  }

  private fault(why: string): void {
    this.channelFault = why;
    this.partial = [];
    this.kill();
  }

  /** The job begins: from now on what the child prints is the program's output. */
  start(job: unknown): void {
    this.started = true;
    this.send(job);
  }

  send(message: unknown): void {
    if (!this.exited) this.input.write(`${JSON.stringify(message)}\n`);
  }

  onMessage(fn: (m: ChildMessage) => void): void { this.messageListeners.push(fn); }
  onExit(fn: (code: number | null, signal: string | null) => void): void { this.exitListeners.push(fn); }
  onOutput(fn: (stream: 'out' | 'err', text: string) => void): void { this.outputListeners.push(fn); }

  kill(): void { if (!this.exited) this.child.kill('SIGKILL'); }

  /** Resident memory of the child, read by grove from /proc (the child cannot misreport it). */
  rss(): number | undefined {
    this.pid ??= this.child.pid === undefined ? undefined : jobPid(this.child.pid);
    if (this.pid === undefined) return undefined;
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return kb ? Number(kb[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** A waiting spare must not keep the worker process alive. */
  setKeepAlive(on: boolean): void {
    for (const h of [this.child, ...this.child.stdio]) (on ? (h as { ref?(): void } | null)?.ref?.() : (h as { unref?(): void } | null)?.unref?.());
  }
}

/** Spare processes kept ready per engine and role: a Python run with tests takes two (the code's and the tests'). */
const SPARES: Record<string, number> = { 'js:code': 1, 'python:code': 1, 'python:tests': 1 };
const spares = new Map<string, SandboxProcess[]>();

/**
 * A sandbox process for `engine` in `role`: a waiting spare when there is one (its engine
 * already loaded, no job ever run in it), else a new one; then spares are topped up for the next
 * run (`GROVE_SANDBOX_SPARES=0` turns spares off). Spares hide the engine's start-up (Pyodide:
 * ~1.6 s) without sharing anything between runs: every process runs one job and exits.
 *
 * @example
 * const sandbox = takeSandbox('python');
 */
export function takeSandbox(engine: Engine, role: SandboxRole = 'code'): SandboxProcess {
  const key = `${engine}:${role}`;
  const pool = spares.get(key) ?? [];
  spares.set(key, pool);
  let chosen: SandboxProcess | undefined;
  while (!chosen && pool.length > 0) {
    const spare = pool.shift()!;
    if (!spare.exited) chosen = spare;
  }
  chosen ??= new SandboxProcess(engine, role);
  chosen.setKeepAlive(true);
  if (process.env.GROVE_SANDBOX_SPARES !== '0') {
    while (pool.length < (SPARES[key] ?? 0)) {
      const next = new SandboxProcess(engine, role);
      next.setKeepAlive(false);
      next.onExit(() => { const i = pool.indexOf(next); if (i >= 0) pool.splice(i, 1); });
      pool.push(next);
    }
  }
  return chosen;
}

/** Stops the waiting spares (a worker shutting down; tests). */
export function closeSandboxSpares(): void {
  for (const pool of spares.values()) for (const s of pool) s.kill();
  spares.clear();
}
process.once('exit', closeSandboxSpares);
