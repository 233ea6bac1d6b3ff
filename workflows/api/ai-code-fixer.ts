import type { AICall } from '../../core/airetry/ai-call';
import { runCodeFixer, type CodeFixerOptions, type CodeFixerResult } from '../../core/code/code-fixer';
import { execInSandbox } from '../lib/sandbox-port';

/**
 * The seeds' `AICodeFixer(call; num_rounds=3) |> run!` for your own workflows: runs the call,
 * runs the code of its answer in grove's sandbox (an activity), and feeds errors and failed
 * tests back for up to `numRounds` rounds, retrying from the attempt the call's scoring picks.
 * See `runCodeFixer` for the semantics.
 *
 * @example
 * const call = aiGenerate('Write a Python function `add(a, b)`. Answer with one ```python block.');
 * const fixed = await aiCodeFixer(call, { language: 'python', testCode: 'assert add(1, 2) == 3', numRounds: 3 });
 * if (fixed.success) return fixed.code;
 */
export function aiCodeFixer(call: AICall<string>, opts: CodeFixerOptions): Promise<CodeFixerResult> {
  return runCodeFixer(call, execInSandbox, opts);
}
