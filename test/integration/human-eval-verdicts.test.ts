import type { HumanEvalProblem } from '../../bench/lib/human-eval';
import { Verdicts } from '../../bench/lib/human-eval-methods';

/** A HumanEval-shaped problem (its `test` defines `check(candidate)`; the bench calls it on the entry point). */
const problem: HumanEvalProblem = {
  task_id: 'HumanEval/example',
  prompt: 'def add(a: int, b: int) -> int:\n    """ Adds two numbers.\n    >>> add(1, 2)\n    3\n    """\n',
  canonical_solution: '    return a + b\n',
  test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n',
  entry_point: 'add',
};

test('the bench verdict passes a right program only, once per distinct program: printing, exiting or redefining check cannot fake a pass', async () => {
  const verdicts = new Verdicts(problem);
  const right = problem.prompt + problem.canonical_solution;
  expect(await verdicts.of(right)).toBe(true);
  expect(await verdicts.of(right)).toBe(true);
  expect(verdicts.runs).toBe(1);
  const forged = [
    'def add(a, b):\n    return 0\nprint("All tests passed")',
    'import sys\ndef add(a, b):\n    return 0\nsys.exit(0)',
    'import os\ndef add(a, b):\n    return 0\nos._exit(0)',
    'def check(candidate):\n    pass\ndef add(a, b):\n    return 0',
  ];
  for (const program of forged) expect(await verdicts.of(program)).toBe(false);
  expect(await verdicts.of(undefined)).toBe(false);
  expect(verdicts.runs).toBe(1 + forged.length);
}, 180_000);

test('a program a method already ran with the tests is not run again for its verdict', async () => {
  const verdicts = new Verdicts(problem);
  const wrong = 'def add(a, b):\n    return a - b';
  const { passed, outcome } = await verdicts.test(wrong);
  expect(passed).toBe(false);
  expect(outcome?.error?.kind).toBe('test');
  const other = new Verdicts(problem);
  other.note(wrong, outcome!);
  expect(await other.of(wrong)).toBe(false);
  expect(other.runs).toBe(0);
}, 120_000);
