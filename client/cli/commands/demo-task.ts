import type { CodeFixerInput } from '../../../core/code/code-fixer-input';

/** A task the demo gives the code fixer, and where it stops the first worker. */
export interface DemoTask {
  input: CodeFixerInput;
  /** The first worker is stopped once it has finished this many model calls. */
  stopAfterCalls: number;
}

/**
 * With grove's scripted models: the `code-writer` model writes a palindrome check that ignores
 * punctuation first, and fixes it when the sandbox's test failure is fed back — the same story
 * on every machine, run for run.
 */
export const SCRIPTED_TASK: DemoTask = {
  stopAfterCalls: 1,
  input: {
    prompt: 'Write a JavaScript function `isPalindrome(s)` that says whether a string reads the same backwards, ignoring case, spaces and punctuation. Answer with the code in one ```javascript block.',
    model: 'code-writer',
    language: 'js',
    testCode: "assert(isPalindrome('racecar'));\nassert(isPalindrome('A man, a plan, a canal: Panama'));\nassert(!isPalindrome('grove'));",
    numRounds: 3,
    seed: 1,
  },
};

/** Short feedback messages: a 135M model loses the thread in the seeds' reflect–critique–improve wording. */
const SHORT_TEMPLATE = '{{feedback}}\n\nWrite the corrected function in one ```javascript block.';

/**
 * For a real model — grove's embedded 135M model included. Measured on the embedded model, with
 * these seeds: its first answers fail — `Math.max(numbers)` (NaN for an array), a bare
 * expression over an undefined `numbers`, rambling that does not parse — and the third model call,
 * continuing from an earlier attempt with the sandbox's feedback, writes `Math.max(...numbers)`.
 * Other seeds pass at once or not within the budget; a stronger model usually passes at once,
 * and the demo says so either way. JavaScript, because grove's JavaScript sandbox starts in
 * milliseconds where Python's takes a second or more per run. Two answers per model call,
 * seeded, so the run is the same run after run on one machine; the stop sequence ends an answer
 * at its code block's closing fence instead of letting a small model ramble on to `max_tokens`.
 */
export const MODEL_TASK: DemoTask = {
  stopAfterCalls: 1,
  input: {
    prompt: 'Write a JavaScript function `largest(numbers)` that returns the largest number in an array. Answer with the code in one ```javascript block.',
    language: 'js',
    testCode: 'assert(largest([3, 9, 2]) === 9);\nassert(largest([-5, -2, -9]) === -2);',
    numRounds: 3,
    templates: { first: SHORT_TEMPLATE, later: SHORT_TEMPLATE },
    apiKwargs: { n: 2, max_tokens: 200, seed: 3, stop: ['\n```\n'] },
    config: { nSamples: 2 },
    seed: 1,
  },
};
