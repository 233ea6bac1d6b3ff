/**
 * `code-writer` policy: a scripted programmer for the code fixer's tests and benchmarks. It knows
 * a few small tasks (recognised by the function the prompt asks for) and, like a hurried person,
 * first writes a plausible but wrong solution; it fixes it only when the conversation's last user
 * message carries concrete feedback — a failed test, an error or a missing code fence — as grove's
 * sandbox feedback does. It sees nothing but its prompt: vague feedback ("try again") gets the
 * same wrong code back, so the test measures what the feedback tells it.
 *
 * Tasks: `add(a, b)`, `is_palindrome(s)` / `isPalindrome(s)`, `fizzbuzz(n)`; the language follows
 * the prompt ("Python", "JavaScript", "TypeScript"). An unknown task gets prose without code.
 * Option `fence=0` makes the first answer unfenced prose-with-code (to exercise the missing-block
 * feedback).
 */
import type { ChatPolicy } from '../types';
import { firstUserText, lastUserText } from './conversation';

type Lang = 'python' | 'javascript' | 'typescript';
const SOLUTIONS: Record<string, { buggy: Record<Lang, string>; fixed: Record<Lang, string> }> = {
  add: {
    buggy: { python: 'def add(a, b):\n    return a - b', javascript: 'function add(a, b) {\n  return a - b;\n}', typescript: 'function add(a: number, b: number): number {\n  return a - b;\n}' },
    fixed: { python: 'def add(a, b):\n    return a + b', javascript: 'function add(a, b) {\n  return a + b;\n}', typescript: 'function add(a: number, b: number): number {\n  return a + b;\n}' },
  },
  palindrome: {
    buggy: {
      python: 'def is_palindrome(s):\n    return s == s[::-1]',
      javascript: 'function isPalindrome(s) {\n  return s === s.split("").reverse().join("");\n}',
      typescript: 'function isPalindrome(s: string): boolean {\n  return s === s.split("").reverse().join("");\n}',
    },
    fixed: {
      python: 'def is_palindrome(s):\n    t = [c.lower() for c in s if c.isalnum()]\n    return t == t[::-1]',
      javascript: 'function isPalindrome(s) {\n  const t = s.toLowerCase().replace(/[^a-z0-9]/g, "");\n  return t === t.split("").reverse().join("");\n}',
      typescript: 'function isPalindrome(s: string): boolean {\n  const t = s.toLowerCase().replace(/[^a-z0-9]/g, "");\n  return t === t.split("").reverse().join("");\n}',
    },
  },
  fizzbuzz: {
    buggy: {
      python: 'def fizzbuzz(n):\n    out = []\n    for i in range(1, n):\n        out.append("FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i))\n    return out',
      javascript: 'function fizzbuzz(n) {\n  const out = [];\n  for (let i = 1; i < n; i++) out.push(i % 15 === 0 ? "FizzBuzz" : i % 3 === 0 ? "Fizz" : i % 5 === 0 ? "Buzz" : String(i));\n  return out;\n}',
      typescript: 'function fizzbuzz(n: number): string[] {\n  const out: string[] = [];\n  for (let i = 1; i < n; i++) out.push(i % 15 === 0 ? "FizzBuzz" : i % 3 === 0 ? "Fizz" : i % 5 === 0 ? "Buzz" : String(i));\n  return out;\n}',
    },
    fixed: {
      python: 'def fizzbuzz(n):\n    out = []\n    for i in range(1, n + 1):\n        out.append("FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i))\n    return out',
      javascript: 'function fizzbuzz(n) {\n  const out = [];\n  for (let i = 1; i <= n; i++) out.push(i % 15 === 0 ? "FizzBuzz" : i % 3 === 0 ? "Fizz" : i % 5 === 0 ? "Buzz" : String(i));\n  return out;\n}',
      typescript: 'function fizzbuzz(n: number): string[] {\n  const out: string[] = [];\n  for (let i = 1; i <= n; i++) out.push(i % 15 === 0 ? "FizzBuzz" : i % 3 === 0 ? "Fizz" : i % 5 === 0 ? "Buzz" : String(i));\n  return out;\n}',
    },
  },
};

/** Feedback a programmer can act on: a failed test, an error with its message, or a request to fence the code. */
const CONCRETE = /(Test Failed|Error Detected|Parsing Error|assert|Traceback|Error:|code fence)/;

export const codeWriterPolicy: ChatPolicy = {
  name: 'code-writer',
  description: 'Writes a wrong solution to a small coding task first and fixes it when the feedback names the failure (code fixer tests).',
  respond(req, ctx) {
    const task = firstUserText(req);
    const lang: Lang = /typescript/i.test(task) ? 'typescript' : /javascript|\bjs\b/i.test(task) ? 'javascript' : 'python';
    const key = /is_?palindrome|isPalindrome/i.test(task) ? 'palindrome' : /fizzbuzz/i.test(task) ? 'fizzbuzz' : /\badd\b/.test(task) ? 'add' : undefined;
    const rounds = req.messages.filter((m) => m.role === 'assistant').length;
    let content: string;
    if (!key) {
      content = 'I am not sure how to write that; could you say which function you need?';
    } else {
      const feedback = rounds > 0 ? lastUserText(req) : '';
      const fixed = rounds > 0 && CONCRETE.test(feedback) && !/code fence/.test(feedback);
      const code = (fixed ? SOLUTIONS[key]!.fixed : SOLUTIONS[key]!.buggy)[lang];
      const unfenced = ctx.options.fence === '0' && rounds === 0;
      content = unfenced
        ? `Sure! Here is my solution: ${code.split('\n')[0]} ... (it should work)`
        : `${fixed ? 'You are right, here is the corrected version' : 'Here is the solution'}:\n\n\`\`\`${lang}\n${code}\n\`\`\`\n`;
    }
    return Array.from({ length: ctx.n }, () => ({ content }));
  },
};
