import { integrationSuite } from '../support/integration-suite';
import { groveClient } from '../support/temporal-env';

const suite = integrationSuite('code-agent');

const testCode = "assert is_palindrome('racecar')\nassert is_palindrome('A man, a plan, a canal: Panama')\nassert not is_palindrome('grove')";

test('MCTS over programs: the built-in code-tests evaluator scores each trajectory by the tests it passes in the sandbox', async () => {
  const result = await suite.withWorker((taskQueue) =>
    groveClient(suite.env, taskQueue).run('agent', {
      algorithm: 'mcts',
      prompt: 'Write a Python function `is_palindrome(s)` ignoring case and punctuation. Answer with one ```python block.',
      model: 'code-writer',
      tools: ['run_code'],
      evaluator: { name: 'code-tests', options: { language: 'python', testCode } },
      budget: { maxCalls: 8 },
      seed: 1,
    }),
  );
  // This scripted programmer never sees feedback inside a search, so every program passes 2 of 3 tests.
  expect(result.isSolution).toBe(false);
  expect(result.score).toBeCloseTo(2 / 3, 3);
  expect(result.counters.evaluations).toBeGreaterThanOrEqual(2);
});
