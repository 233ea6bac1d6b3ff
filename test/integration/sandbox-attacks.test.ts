import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname, networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execCode } from '../../activities/sandbox/exec-code';
import { testScore } from '../../core/code/code-outcome';
import { SANDBOX_ATTACKS } from '../fixtures/sandbox-attacks';
import { SANDBOX_BREAKOUTS } from '../fixtures/sandbox-breakouts';

const dir = mkdtempSync(join(tmpdir(), 'grove-sandbox-'));
chmodSync(dir, 0o755);
const secret = `file-secret-${randomBytes(8).toString('hex')}`;
const canary = `env-secret-${randomBytes(8).toString('hex')}`;
const secretFile = join(dir, 'secret.txt');
writeFileSync(secretFile, secret);
process.env.GROVE_SANDBOX_CANARY = canary;
const unixSocket = join(dir, 'host.sock');
const ALL = [...SANDBOX_ATTACKS, ...SANDBOX_BREAKOUTS];

// What the host is, so that no outcome may show it: its name, its addresses, this process's command line.
const hostFacts = [
  ...(hostname().length >= 6 ? [hostname()] : []),
  ...Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal).map((i) => i!.address),
  process.argv[1]!,
];

// Servers the code must never reach: a TCP port and a Unix socket anyone may write to.
const connections: string[] = [];
let tcp: Server;
let unix: Server;
let tcpPort = 0;
beforeAll(async () => {
  tcp = createServer((s) => { connections.push('tcp'); s.destroy(); });
  unix = createServer((s) => { connections.push('unix'); s.destroy(); });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => unix.listen(unixSocket, r));
  chmodSync(unixSocket, 0o777);
  tcpPort = (tcp.address() as { port: number }).port;
});
afterAll(() => { tcp.close(); unix.close(); });

function fill(code: string, escapeFile: string): string {
  return code
    .replaceAll('SECRET_FILE', secretFile)
    .replaceAll('ESCAPE_FILE', escapeFile)
    .replaceAll('CANARY_VAR', 'GROVE_SANDBOX_CANARY')
    .replaceAll('TCP_PORT', String(tcpPort))
    .replaceAll('UNIX_SOCKET', unixSocket);
}

test('the corpus covers every language, every class, and at least 50 attacks', () => {
  expect(ALL.length).toBeGreaterThanOrEqual(50);
  expect(new Set(ALL.map((a) => a.language))).toEqual(new Set(['js', 'ts', 'python']));
  expect(new Set(ALL.map((a) => a.class))).toEqual(new Set(['escape', 'limits', 'bridge', 'network', 'host-info', 'host-fds', 'forgery']));
  expect(new Set(ALL.map((a) => a.name)).size).toBe(ALL.length);
  expect(ALL.filter((a) => a.class === 'forgery').every((a) => a.testCode)).toBe(true);
});

test.each(ALL.map((a) => [a.name, a] as const))('%s: contained, nothing leaks or reaches the host, no false pass', async (_name, attack) => {
  const escapeFile = join(dir, `escape-${randomBytes(4).toString('hex')}`);
  const before = connections.length;
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => { written.push(String(chunk)); return (write as (...a: unknown[]) => boolean)(chunk, ...rest); }) as typeof process.stdout.write;
  let outcome;
  try {
    outcome = await execCode({
      language: attack.language,
      code: fill(attack.code, escapeFile),
      ...(attack.testCode ? { testCode: attack.testCode } : {}),
      // Python imports a lot of the standard library for some attacks: room for a busy machine.
      timeoutMs: attack.timeoutMs ?? (attack.language === 'python' ? 10_000 : 3_000),
      memoryMb: attack.memoryMb ?? 64,
    });
  } finally {
    process.stdout.write = write;
  }
  const kind = outcome.ok ? 'ok' : outcome.error!.kind;
  // An attack that runs out of time found nothing in that time: what decides is that nothing
  // leaked or was reached and that no forgery passed (below). Limits must end as they say.
  const contained = attack.class === 'limits' ? attack.contained : [...attack.contained, 'timeout'];
  expect([attack.name, contained.includes(kind) ? 'contained' : `got ${kind}: ${outcome.error?.message}`]).toEqual([attack.name, 'contained']);
  const everything = JSON.stringify(outcome);
  expect(everything.includes(canary)).toBe(false);
  expect(everything.includes(secret)).toBe(false);
  expect(hostFacts.filter((fact) => everything.includes(fact))).toEqual([]);
  expect(existsSync(escapeFile)).toBe(false);
  expect(connections.slice(before)).toEqual([]);
  expect(written.join('').includes('HOSTFD-CANARY')).toBe(false);
  expect(outcome.stdout.length).toBeLessThanOrEqual(20_000);
  expect(everything.length).toBeLessThan(100_000);
  if (attack.testCode) {
    expect([outcome.ok, testScore(outcome) < 1]).toEqual([false, true]);
  }
});

test('while code loops forever and another exhausts memory, the host keeps serving: a third run and a timer complete first', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  let loopDone = false;
  const loop = execCode({ language: 'python', code: 'while True:\n    pass', timeoutMs: 8_000 }).then((o) => { loopDone = true; return o; });
  const bomb = execCode({ language: 'js', code: 'let s = "x"; for (;;) s += s', memoryMb: 32, timeoutMs: 8_000 });
  const quick = await execCode({ language: 'js', code: '6 * 7' });
  const ticksWhileLooping = ticks;
  clearInterval(timer);
  expect([quick.ok, quick.result, loopDone]).toEqual([true, 42, false]);
  expect(ticksWhileLooping).toBeGreaterThan(0);
  expect((await bomb).error?.kind).toBe('memory');
  expect((await loop).error?.kind).toBe('timeout');
});

test('tests are counted per assert and the first failure is named with its line', async () => {
  const py = await execCode({ language: 'python', code: 'def add(a, b):\n    return a - b', testCode: 'def check(f):\n    assert f(2, 0) == 2\n    assert f(1, 2) == 3, "one plus two"\ncheck(add)' });
  expect([py.ok, py.error?.kind, py.tests]).toEqual([false, 'test', { passed: 1, total: 2, completed: true }]);
  expect(py.error!.message).toContain('line 3: assert f(1, 2) == 3');
  const js = await execCode({ language: 'js', code: 'function add(a, b) { return a + b }', testCode: 'test("adds", () => { assert.equal(add(1, 2), 3) })' });
  expect([js.ok, js.tests]).toEqual([true, { passed: 1, total: 1, completed: true }]);
  const ts = await execCode({ language: 'ts', code: 'const x: number = 1;\nfunction f(n: number): number {\n  throw new Error("boom " + n);\n}\nf(x);' });
  expect([ts.error?.kind, ts.error?.line, ts.error?.message]).toEqual(['runtime', 3, 'Error: boom 1']);
});

test('files are seeded into the virtual file system; bad input is refused naming the field', async () => {
  const out = await execCode({ language: 'python', code: 'print(open("data/in.txt").read().upper())', files: { 'data/in.txt': 'hello' } });
  expect([out.ok, out.stdout]).toEqual([true, 'HELLO\n']);
  await expect(execCode({ language: 'ruby' as never, code: '' })).rejects.toThrow(/language/);
  await expect(execCode({ language: 'js', code: '1', timeoutMs: 10_000_000 })).rejects.toThrow(/timeoutMs/);
});
