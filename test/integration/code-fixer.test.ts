import { readFileSync } from 'node:fs';
import { integrationSuite } from '../support/integration-suite';
import { groveClient } from '../support/temporal-env';

const suite = integrationSuite('code-fixer');

test('the code fixer fixes a wrong solution through the sandbox’s real feedback, on the dev server', async () => {
  const input = JSON.parse(readFileSync('examples/inputs/code-fixer.json', 'utf8'));
  const result = await suite.withWorker((taskQueue) => groveClient(suite.env, taskQueue).run('code-fixer', input));
  expect(result.success).toBe(true);
  expect(result.attempts.map((a) => [a.ok, a.kind, a.tests])).toEqual([
    [false, 'test', { passed: 2, total: 3, completed: true }],
    [true, undefined, { passed: 3, total: 3, completed: true }],
  ]);
  expect([result.calls, result.retries]).toEqual([2, 1]);
  expect(result.code).toContain('isalnum');
  // What the model was told came from running its code: the failing assert, quoted, with the tally.
  const feedback = result.conversation.filter((m) => m.role === 'user').at(-1)!;
  expect(feedback.content).toContain("**Test Failed:** line 2: assert is_palindrome('A man, a plan, a canal: Panama') failed");
  expect(feedback.content).toContain('**Tests:** 2/3 passed.');
  expect(result.outcome?.ok).toBe(true);
});

test('an answer without code is told to fence it; JavaScript runs in QuickJS; rounds stop at numRounds', async () => {
  const base = {
    prompt: 'Write a JavaScript function `fizzbuzz(n)` returning the FizzBuzz strings from 1 to n.',
    model: 'code-writer?fence=0',
    language: 'js' as const,
    testCode: 'assert.equal(fizzbuzz(5), ["1", "2", "Fizz", "4", "Buzz"]);\nassert.equal(fizzbuzz(15).at(-1), "FizzBuzz");',
  };
  const { fixed, short } = await suite.withWorker(async (taskQueue) => ({
    fixed: await groveClient(suite.env, taskQueue).run('code-fixer', { ...base, numRounds: 3 }),
    short: await groveClient(suite.env, taskQueue).run('code-fixer', { ...base, numRounds: 1 }),
  }));
  expect(fixed.attempts.map((a) => [a.ok, a.kind])).toEqual([[false, 'syntax'], [false, 'test'], [true, undefined]]);
  const told = fixed.conversation.filter((m) => m.role === 'user').map((m) => String(m.content));
  expect(told[1]).toContain('No javascript code found');
  expect(told[2]).toContain('**Test Failed:**');
  expect(fixed.success).toBe(true);
  // One round is not enough for this programmer: the run ends without success and says so.
  expect([short.success, short.calls, short.retries]).toEqual([false, 2, 1]);
});

test('bad code-fixer input is refused before a run starts, naming the field', async () => {
  const client = groveClient(suite.env, 'unused-queue');
  await expect(client.start('code-fixer', { prompt: 'x', language: 'ruby' } as never)).rejects.toThrow(/language/);
  await expect(client.start('code-fixer', { prompt: 'x', language: 'python', templates: { first: 'no placeholder', later: '{{feedback}}' } } as never)).rejects.toThrow(/templates\.first/);
});
