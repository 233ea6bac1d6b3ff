import { execCode } from '../../activities/sandbox/exec-code';
import { testScore, type CodeOutcome } from '../../core/code/code-outcome';

/** Tests run apart from the code; what legitimate tests need must still work across. */
const py = (code: string, testCode?: string) => execCode({ language: 'python', code, testCode, timeoutMs: 15_000 });
const js = (code: string, testCode?: string) => execCode({ language: 'js', code, testCode, timeoutMs: 5_000 });
const verdict = (o: CodeOutcome) => [o.ok, o.error?.kind, o.tests];
const pass = (total: number) => [true, undefined, { passed: total, total, completed: true }];

test('Python: plain data of every kind crosses both ways exactly', async () => {
  const code = [
    'from decimal import Decimal',
    'from fractions import Fraction',
    'def echo(x):',
    '    return x',
    'def kinds():',
    '    return (1, 2), {3, 4}, frozenset([5]), {1: "a", (2, 3): None}, 10**30, float("nan"), b"\\x00\\xff", bytearray(b"ab"), 1+2j, Decimal("1.10"), Fraction(1, 3), [True, None]',
  ].join('\n');
  const tests = [
    'import math',
    'from decimal import Decimal',
    'from fractions import Fraction',
    't, s, fs, d, big, nan, b, ba, c, dec, fr, rest = kinds()',
    'assert t == (1, 2) and type(t) is tuple',
    'assert s == {3, 4} and fs == frozenset([5])',
    'assert d == {1: "a", (2, 3): None}',
    'assert big == 10**30 and math.isnan(nan)',
    'assert b == b"\\x00\\xff" and ba == bytearray(b"ab")',
    'assert c == 1+2j and dec == Decimal("1.10") and fr == Fraction(1, 3)',
    'assert rest == [True, None]',
    'assert echo({"k": [1, (2,)]}) == {"k": [1, (2,)]}',
    'assert echo(kw := 5) == 5',
  ].join('\n');
  expect(verdict(await py(code, tests))).toEqual(pass(9));
});

test('Python: exceptions cross with their type and line; in-place changes are copied back; plain globals and modules are there', async () => {
  const code = [
    'import math',
    'TABLE = {1: "one", 2: "two"}',
    'class Negative(Exception):',
    '    pass',
    'def root(x):',
    '    if x < 0:',
    '        raise ValueError("negative: " + str(x))',
    '    return math.sqrt(x)',
    'def strict(x):',
    '    raise Negative("no")',
    'def sort_in_place(xs, seen):',
    '    xs.sort()',
    '    seen["sorted"] = True',
  ].join('\n');
  const tests = [
    'try:',
    '    root(-1)',
    '    assert False, "no error"',
    'except ValueError as e:',
    '    assert "negative: -1" in str(e) and "line 7" in str(e)',
    'try:',
    '    strict(1)',
    'except Exception as e:',
    '    assert type(e).__name__ == "GroveCodeError" and "Negative: no" in str(e)',
    'a, seen = [3, 1, 2], {}',
    'sort_in_place(a, seen)',
    'assert a == [1, 2, 3] and seen == {"sorted": True}',
    'assert TABLE[2] == "two" and math.pi > 3',
    'def test_root():',
    '    assert root(9) == 3',
  ].join('\n');
  expect(verdict(await py(code, tests))).toEqual(pass(5));
});

test("Python: HumanEval's shape works as is; what cannot cross is refused with a message naming it", async () => {
  const humaneval = await py(
    'def has_close_elements(numbers, threshold):\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])',
    'METADATA = {"author": "jt"}\n\ndef check(candidate):\n    assert candidate([1.0, 2.0, 3.9, 4.0], 0.3) == True\n    assert candidate([1.0, 2.0, 5.9], 0.5) == False\n\ncheck(has_close_elements)',
  );
  expect(verdict(humaneval)).toEqual(pass(2));
  const objects = await py('class Point:\n    def __init__(self, x):\n        self.x = x\ndef make(x):\n    return Point(x)\nORIGIN = Point(0)', 'assert make(1).x == 1\nassert ORIGIN.x == 0');
  expect(verdict(objects)).toEqual([false, 'test', { passed: 0, total: 2, completed: true }]);
  expect(objects.error!.message).toMatch(/make\(\) returned a Point object, which is not plain data/);
  const callback = await py('def apply(f, x):\n    return f(x)', 'assert apply(lambda v: v + 1, 1) == 2');
  expect(callback.error!.message).toMatch(/the tests pass a function object.*to apply\(\)/);
});

test('Python: exits are never a pass; without tests, an exit status is the outcome', async () => {
  const during = await py('import sys\ndef f():\n    sys.exit(0)', 'assert f() is None\nassert 1 == 1');
  expect([during.ok, during.tests?.completed, testScore(during) < 1]).toEqual([false, false, true]);
  expect(during.error!.message).toMatch(/exited \(status 0\) while the tests were calling it/);
  const before = await py('def f():\n    return 1\nimport sys\nsys.exit(0)', 'assert f() == 1');
  expect([before.ok, before.error?.message]).toEqual([false, 'the code exited (status 0) before the tests ran: the tests did not run']);
  expect((await py('import sys\nprint("bye")\nsys.exit(0)')).ok).toBe(true);
  expect((await py('import sys\nsys.exit(2)')).error?.message).toBe('the program exited with status 2');
});

test('JavaScript: plain data crosses between the two realms; exceptions, in-place changes, data and refusals', async () => {
  const code = [
    'function kinds() { return [undefined, NaN, -0, 10n ** 20n, new Map([[1, "a"]]), new Set([2]), new Date(5), { k: [1, { z: null }] }] }',
    'function sortInPlace(xs) { xs.sort((a, b) => a - b) }',
    'function root(x) { if (x < 0) throw new RangeError("negative: " + x); return Math.sqrt(x) }',
    'const LIMITS = { max: 3 };',
    'class Point { constructor(x) { this.x = x } }',
    'function make(x) { return new Point(x) }',
  ].join('\n');
  const tests = [
    'const [u, n, z, big, m, s, d, o] = kinds();',
    'assert(u === undefined && Number.isNaN(n) && Object.is(z, -0) && big === 10n ** 20n);',
    'assert(m.get(1) === "a" && s.has(2) && d.getTime() === 5);',
    'assert.equal(o, { k: [1, { z: null }] });',
    'const xs = [3, 1, 2]; sortInPlace(xs); assert.equal(xs, [1, 2, 3]);',
    'try { root(-1); assert(false) } catch (e) { assert(e instanceof RangeError && e.message === "negative: -1") }',
    'assert(LIMITS.max === 3);',
    'test("objects are refused", () => { make(1) });',
  ].join('\n');
  const out = await js(code, tests);
  expect([out.ok, out.tests]).toEqual([false, { passed: 6, total: 7, completed: true }]);
  expect(out.error!.message).toMatch(/objects are refused: TypeError: returned a Point object, which is not plain data/);
});

test('correct programs pass: big ints, BigInt, key order, TypeScript exports, unittest cases; tests that check nothing do not', async () => {
  expect(verdict(await py('import math\ndef f(n):\n    return math.factorial(n)', 'import math\nassert f(2000) == math.factorial(2000)'))).toEqual(pass(1));
  expect(verdict(await js('function big() { console.log(10n); return 10n ** 30n }\nfunction obj() { return { b: 1, a: 2 } }', 'assert.equal(big(), 10n ** 30n); assert.deepEqual(obj(), { a: 2, b: 1 })'))).toEqual(pass(2));
  expect(verdict(await execCode({ language: 'ts', code: 'export function add(a: number, b: number): number { return a + b }', testCode: 'assert.equal(add(1, 2), 3)' }))).toEqual(pass(1));
  const unittest = await py('def add(a, b):\n    return a + b', 'import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\nif __name__ == "__main__":\n    unittest.main()');
  expect(verdict(unittest)).toEqual(pass(2));
  const nothing = await py('def add(a, b):\n    return a + b', 'def check(candidate):\n    assert candidate(1, 2) == 3');
  expect([nothing.ok, nothing.error?.message]).toEqual([false, expect.stringMatching(/checked nothing/)]);
});

test('testScore: 1 only for an ok run; an incomplete run never reaches 1', () => {
  const base = { stdout: '', stderr: '', durationMs: 1 };
  expect(testScore({ ...base, ok: true, tests: { passed: 3, total: 3, completed: true } })).toBe(1);
  expect(testScore({ ...base, ok: false, tests: { passed: 2, total: 4, completed: true } })).toBe(0.5);
  expect(testScore({ ...base, ok: false, tests: { passed: 3, total: 3, completed: false } })).toBe(0.75);
  expect(testScore({ ...base, ok: false, tests: { passed: 3, total: 3, completed: true } })).toBe(0.75);
  expect(testScore({ ...base, ok: false })).toBe(0);
});
