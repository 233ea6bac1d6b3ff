import type { CodeFixerResult } from '../../../core/code/code-fixer-input';
import type { CodeFixerInput } from '../../../core/code/code-fixer-input';
import { formatFixerTree, sandboxRuns } from '../../../core/code/format-fixer-tree';
import type { ConversationDelta } from '../../../core/conversation/delta';
import { describeRun } from '../../../core/runs/describe-run';
import { plural } from '../../../core/runs/run-figures';
import { SampleTree } from '../../../core/tree/sample-tree';
import type { RestartReport } from './demo-restart';

type Fixed = CodeFixerResult & { modelCalls?: number };

/**
 * The task as the demo states it before the run: the prompt, the tests that will decide, how the
 * fixer goes on, and when the first worker will be stopped.
 *
 * @example
 * taskLines(MODEL_TASK.input, 1); // ['> Write a JavaScript function …', '  tests (…):', …]
 */
export function taskLines(input: CodeFixerInput, stopAfterCalls: number): string[] {
  return [
    `> ${input.prompt}`,
    `  tests, run with every answer in grove's sandbox — they decide, not the model:`,
    ...(input.testCode ?? '').split('\n').map((line) => `    ${line}`),
    `  code fixer: ${plural(input.config?.nSamples ?? 1, 'answer')} per model call; a failing attempt's test output is fed back, for up to ${plural(input.numRounds ?? 3, 'round')}`,
    `  worker 1 runs it, and is stopped once it has finished ${plural(stopAfterCalls, 'model call')}; worker 2 takes over`,
  ];
}

/**
 * What the run showed, in the order a reader needs it: the stop and the restart, the verdict
 * (the tests' — `describeRun`, the words every grove surface uses), the code, the tree it grew,
 * and what it paid by grove's count and by the model server's.
 *
 * @example
 * outcomeLines(result, restart, { seconds: 9.9, language: 'js' }).join('\n');
 */
export function outcomeLines(fixed: Fixed, restart: RestartReport | undefined, opts: { seconds: number; language: CodeFixerInput['language']; stopAfterCalls: number }): string[] {
  const run = describeRun('code-fixer', fixed);
  const tree = SampleTree.fromJSON<ConversationDelta>(fixed.tree);
  return [
    ...restartLines(restart, opts.stopAfterCalls),
    '',
    run.headline,
    `${run.answerLabel}:`,
    run.answer,
    '',
    'the tree it grew (each attempt: what running it with the tests showed):',
    formatFixerTree(tree, fixed.attempts, { activeSampleId: fixed.activeSampleId, language: opts.language }),
    '',
    ...paidLines(fixed, restart, { seconds: opts.seconds, sandboxRuns: sandboxRuns(tree, fixed.attempts, opts.language) }),
  ];
}

/** What happened at the stop; a run that ended before it says no restart happened. */
function restartLines(restart: RestartReport | undefined, stopAfterCalls: number): string[] {
  if (!restart) return [`worker 1 finished the run within ${plural(stopAfterCalls, 'model call')}, before the stop: no restart this time`];
  const open = restart.atStop ? `, with call ${restart.finishedBeforeStop + 1} open (held unanswered at the model server, so the stop falls between answers)` : '';
  return [
    `worker 1: stopped after ${plural(restart.finishedBeforeStop, 'finished model call')}${open}`,
    'worker 2: started; it rebuilt the run from its history in Temporal and went on from there',
  ];
}

/** What the run paid: grove's count, and the model server's own where grove runs it. */
function paidLines(fixed: Fixed, restart: RestartReport | undefined, opts: { seconds: number; sandboxRuns: number }): string[] {
  const calls = fixed.modelCalls ?? fixed.calls;
  const lines = [`paid: ${plural(calls, 'model call')} by grove's count (${plural(fixed.calls, 'answer')}, ${fixed.usage.totalTokens.toLocaleString('en-US')} tokens) and ${plural(opts.sandboxRuns, 'sandbox run')}, in ${opts.seconds.toFixed(1)} s`];
  const end = restart?.atEnd;
  if (end && restart.atStop) {
    const same = end.answered === calls ? `the ${calls} grove counted` : `grove counted ${calls}`;
    const repaid = end.repaid === 0 ? 'no call it had answered was asked again' : `${plural(end.repaid, 'call')} it had answered asked again: paid twice`;
    lines.push(`the model server's own count: ${plural(end.answered, 'request')} answered for this run (${restart.atStop.answered} before the stop, ${end.answered - restart.atStop.answered} after) — ${same}; ${repaid}`);
    if (end.unanswered > 0) lines.push(`  ${plural(end.unanswered, 'request')} cut off unanswered at the stop, asked again by worker 2 (never answered, so not paid twice)`);
  } else if (restart) {
    lines.push("the model server is not grove's (OPENAI_BASE_URL): its own count is not known here; worker 2 took every call worker 1 had finished from the run's history");
  }
  return lines;
}
