import { spawnSync } from 'node:child_process';
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
  expect([off.available, off.layers]).toEqual([false, ['no-inherited-fds']]);
  resetSandboxJail();
});
