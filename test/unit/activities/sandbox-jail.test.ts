import { spawn, spawnSync } from 'node:child_process';
import { resetSandboxJail, sandboxJail } from '../../../activities/sandbox/sandbox-jail';

/**
 * The jail's wrapper, exercised directly: a descriptor the worker inherited from its own parent
 * (a shell's `exec 201<file`) must not reach the sandbox process, with or without the jail; in
 * the jail the process is PID 1 of its own namespace and runs as an unprivileged user.
 */
const PROBE = [
  'const fs = require("fs");',
  'let fd201 = "closed"; try { fs.fstatSync(201); fd201 = "open"; } catch (e) { fd201 = e.code; }',
  'console.log(JSON.stringify({ fd201, pid: process.pid, uid: process.getuid() }));',
].join('\n');

function probe(mode: string): { fd201: string; pid: number; uid: number } {
  resetSandboxJail();
  const jail = sandboxJail({ GROVE_SANDBOX_JAIL: mode });
  const { file, args } = jail.wrap(['-e', PROBE], []);
  // bash opens fd 201 without close-on-exec, as a shell or supervisor would, then becomes the worker's spawn.
  const run = spawnSync('bash', ['-c', 'exec 201</etc/hostname; exec "$@"', 'worker', file, ...args], { encoding: 'utf8', env: {} });
  resetSandboxJail();
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}

test('the jail is available on this machine and says what it guards', () => {
  resetSandboxJail();
  const jail = sandboxJail({});
  expect([jail.available, jail.reason]).toEqual([true, undefined]);
  expect(jail.layers).toEqual(expect.arrayContaining(['no-inherited-fds', 'network-namespace', 'pid-namespace', 'filesystem-jail', 'no-new-privileges']));
});

test('in the jail: inherited descriptors are closed, the process is PID 1 of its namespace, and unprivileged when grove runs as root', () => {
  const inside = probe('auto');
  expect(inside.fd201).toBe('EBADF');
  expect(inside.pid).toBe(1);
  if (process.getuid?.() === 0) expect(inside.uid).toBe(65534);
});

test('without the jail, inherited descriptors are still closed and the layers say the jail is missing', () => {
  expect(probe('off').fd201).toBe('EBADF');
  resetSandboxJail();
  const off = sandboxJail({ GROVE_SANDBOX_JAIL: 'off' });
  expect([off.available, off.layers]).toEqual([false, ['no-inherited-fds', 'dies-with-worker']]);
  resetSandboxJail();
});

/** Whether a process is alive (and not a zombie). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

test.each(['auto', 'off'])('a job in a busy loop dies when the worker that started it dies (jail %s)', async (mode) => {
  resetSandboxJail();
  const jail = sandboxJail({ GROVE_SANDBOX_JAIL: mode });
  // The job prints its pid as the host sees it (in the jail: PID 1 of its namespace, so the worker's child's child), then spins.
  const { file, args } = jail.wrap(['-e', 'console.log("spinning"); for (;;) {}'], []);
  resetSandboxJail();
  // A stand-in worker: starts the job, says the job's host pid, and is then SIGKILLed, as a crashed worker would be.
  const worker = spawn(process.execPath, ['-e', `const c = require('child_process').spawn(${JSON.stringify(file)}, ${JSON.stringify(args)}, { stdio: ['ignore', 'pipe', 'inherit'], env: {} }); c.stdout.once('data', () => { console.log(c.pid); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const spawned = Number(await new Promise<string>((resolve) => worker.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
  // In the jail grove spawns unshare (through setpriv, which becomes it), which forks the job; without it the job is the spawned process.
  const children = () => {
    try {
      return require('node:fs').readFileSync(`/proc/${spawned}/task/${spawned}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) as number[];
    } catch {
      return [];
    }
  };
  const job = mode === 'off' ? spawned : children()[0];
  expect(job !== undefined && alive(job)).toBe(true);
  worker.kill('SIGKILL');
  let gone = false;
  for (let i = 0; i < 200 && !gone; i++) {
    gone = !alive(job);
    if (!gone) await new Promise((r) => setTimeout(r, 50));
  }
  if (!gone) process.kill(job, 'SIGKILL'); // do not leave it spinning on a failure
  expect(gone).toBe(true);
});
