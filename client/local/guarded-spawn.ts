import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * The server runs under a small `sh` guard that holds a pipe from this process: when this process
 * ends — however it ends, SIGKILL included, because the kernel closes the pipe — the guard stops
 * the server. A SIGTERM to the guard stops the server too, and the guard exits with the
 * server's exit code, so callers see the server's own exit.
 */
const guard = (signal: string) =>
  [
    'exec 3<&0',
    '"$@" </dev/null &',
    'server=$!',
    `( cat >/dev/null <&3; kill -${signal} $server 2>/dev/null ) &`,
    'watcher=$!',
    `trap 'kill -${signal} $server 2>/dev/null' TERM INT`,
    'while :; do wait $server; code=$?; kill -0 $server 2>/dev/null || break; done',
    'kill $watcher 2>/dev/null',
    'exit $code',
  ].join('\n');

export interface GuardedProcess {
  child: ChildProcess;
  /** Resolves with the server's exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Stops the server (SIGTERM, then SIGKILL after `graceMs`) and waits for it. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns `command` so that it never outlives this process (see `guard`), with stderr piped;
 * `stopSignal` is what the server gets when it is stopped (default SIGTERM).
 *
 * @example
 * const server = spawnGuarded('/usr/bin/temporal', ['server', 'start-dev']);
 * await server.stop();
 */
export function spawnGuarded(
  command: string,
  args: string[],
  opts: Pick<SpawnOptions, 'uid' | 'gid' | 'env' | 'cwd'> & { stopSignal?: 'TERM' | 'INT' } = {},
): GuardedProcess {
  const { stopSignal = 'TERM', ...spawnOptions } = opts;
  const child = spawn('sh', ['-c', guard(stopSignal), 'sh', command, ...args], { ...spawnOptions, stdio: ['pipe', 'ignore', 'pipe'] });
  child.stdin?.on('error', () => {}); // the guard may be gone already
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let stopping: Promise<void> | undefined;
  return {
    child,
    exited,
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.stdin?.end(), graceMs); // last resort: the guard's pipe
        await exited;
        clearTimeout(timer);
        child.stdin?.end();
      })();
      return stopping;
    },
  };
}
