import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execCode } from '../../../activities/sandbox/exec-code';
import { SANDBOX_ATTACKS } from '../../fixtures/sandbox-attacks';

const dir = mkdtempSync(join(tmpdir(), 'grove-sandbox-'));
const secret = `file-secret-${randomBytes(8).toString('hex')}`;
const canary = `env-secret-${randomBytes(8).toString('hex')}`;
const secretFile = join(dir, 'secret.txt');
writeFileSync(secretFile, secret);
process.env.GROVE_SANDBOX_CANARY = canary;

function fill(code: string, escapeFile: string): string {
  return code.replaceAll('SECRET_FILE', secretFile).replaceAll('ESCAPE_FILE', escapeFile).replaceAll('CANARY_VAR', 'GROVE_SANDBOX_CANARY');
}

test('the corpus covers every language and at least 30 attacks', () => {
  expect(SANDBOX_ATTACKS.length).toBeGreaterThanOrEqual(30);
  expect(new Set(SANDBOX_ATTACKS.map((a) => a.language))).toEqual(new Set(['js', 'ts', 'python']));
  expect(new Set(SANDBOX_ATTACKS.map((a) => a.name)).size).toBe(SANDBOX_ATTACKS.length);
});

test.each(SANDBOX_ATTACKS.map((a) => [a.name, a] as const))('%s: contained, nothing leaks, nothing written', async (_name, attack) => {
  const escapeFile = join(dir, `escape-${randomBytes(4).toString('hex')}`);
  const outcome = await execCode({ language: attack.language, code: fill(attack.code, escapeFile), timeoutMs: attack.timeoutMs ?? 3_000, memoryMb: attack.memoryMb ?? 64 });
  const kind = outcome.ok ? 'ok' : outcome.error!.kind;
  expect([attack.name, attack.contained.includes(kind) ? 'contained' : `got ${kind}: ${outcome.error?.message}`]).toEqual([attack.name, 'contained']);
  const everything = JSON.stringify(outcome);
  expect(everything.includes(canary)).toBe(false);
  expect(everything.includes(secret)).toBe(false);
  expect(existsSync(escapeFile)).toBe(false);
  expect(outcome.stdout.length).toBeLessThanOrEqual(20_000);
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
  expect([py.ok, py.error?.kind, py.tests]).toEqual([false, 'test', { passed: 1, total: 2 }]);
  expect(py.error!.message).toContain('line 3: assert f(1, 2) == 3');
  const js = await execCode({ language: 'js', code: 'function add(a, b) { return a + b }', testCode: 'test("adds", () => { assert.equal(add(1, 2), 3) })' });
  expect([js.ok, js.tests]).toEqual([true, { passed: 1, total: 1 }]);
  const ts = await execCode({ language: 'ts', code: 'const x: number = 1;\nfunction f(n: number): number {\n  throw new Error("boom " + n);\n}\nf(x);' });
  expect([ts.error?.kind, ts.error?.line, ts.error?.message]).toEqual(['runtime', 3, 'Error: boom 1']);
});

test('files are seeded into the virtual file system; bad input is refused naming the field', async () => {
  const out = await execCode({ language: 'python', code: 'print(open("data/in.txt").read().upper())', files: { 'data/in.txt': 'hello' } });
  expect([out.ok, out.stdout]).toEqual([true, 'HELLO\n']);
  await expect(execCode({ language: 'ruby' as never, code: '' })).rejects.toThrow(/language/);
  await expect(execCode({ language: 'js', code: '1', timeoutMs: 10_000_000 })).rejects.toThrow(/timeoutMs/);
});
