import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { COMPILED } from '../runtime/paths';

const ROOT = join(__dirname, '..');
/** The worker entrypoint: compiled JS in the package, the TypeScript source (through tsx) in a checkout. */
const ENTRY = COMPILED ? [join(__dirname, 'main.js')] : ['-r', 'tsx/cjs', join(__dirname, 'main.ts')];

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the worker printed its ready line. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * A grove worker in its own OS process (`workers/main.ts`), so a test can SIGKILL it in the
 * middle of a run, exactly as a crashed host would die. `opts.args` runs another worker program
 * (node arguments, e.g. `bin/grove worker` or `['-r', 'tsx/cjs', 'examples/mcp/worker.ts']`), ready once it prints
 * `opts.readyLine`.
 */
export function startWorkerProcess(env: Record<string, string>, opts: { args?: string[]; readyLine?: string } = {}): WorkerProcess {
  const readyLine = opts.readyLine ?? 'grove worker: task queue';
  const child = spawn(process.execPath, opts.args ?? ENTRY, {
    cwd: ROOT,
    env: { ...process.env, GROVE_STICKY_QUEUE_TIMEOUT_MS: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyLine)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`worker process exited (${code}) before it was ready: ${output.slice(-500)}`)));
  });
  ready.catch(() => {}); // a worker killed while starting is not an unhandled rejection; awaiters still see it
  return {
    child,
    ready,
    exited,
    output: () => output,
    async kill(signal) {
      child.kill(signal);
      await exited;
    },
  };
}

/** Polls `predicate` every 50 ms until it holds (or fails after `timeoutMs`). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
