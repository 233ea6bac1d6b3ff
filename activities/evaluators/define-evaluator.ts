import { ApplicationFailure } from '@temporalio/common';
import { InvalidConfigError } from '../../core/errors';
import type { Message } from '../../core/schemas/messages';
import { EvaluatorFailure } from '../../core/failures';

/** What a custom evaluator gets besides the trajectory. */
export interface EvaluatorContext {
  /** The run's `evaluator.options` (`{}` when it set none): e.g. which test suite to run. */
  options: Record<string, unknown>;
  /** Aborted when the activity is cancelled (the search ended, or the run was cancelled). */
  signal?: AbortSignal;
}

/** A custom evaluator's verdict: `score` in [0, 1] (1 = solved), with an optional justification. */
export interface EvaluatorOutput {
  score: number;
  reasoning?: string;
}

/**
 * A custom evaluator, registered on the worker by name (Saplings' `Evaluator.run(trajectory)`).
 * The trajectory is the whole conversation of the path: the prompt, every tool call and every
 * tool result (`rawOutput` holds what the tool returned before formatting).
 */
export interface EvaluatorDefinition {
  /** How runs name it (`evaluator: { name }`); not `llm`, which is grove's built-in. */
  name: string;
  /**
   * Quick and deterministic over the trajectory (no model call, no network; well under a
   * second): agent runs then evaluate with it as a local activity on the worker that holds the
   * run — recorded in history the same way, ~20 ms cheaper per evaluation than a trip through
   * the task queue. Leave it off for evaluators that run tests in a sandbox or call a service.
   */
  fast?: boolean;
  /**
   * Bump it when how the evaluator scores changes: workers are interchangeable for a run only
   * when their evaluators agree on name, `fast` and version, and grove reports those that differ.
   */
  version?: string;
  run(trajectory: Message[], ctx: EvaluatorContext): Promise<EvaluatorOutput> | EvaluatorOutput;
}

/** The name of grove's built-in LLM evaluator; custom evaluators may not take it. */
export const LLM_EVALUATOR_NAME = 'llm';

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,99}$/;

/**
 * Checks a custom evaluator when the worker is set up, so a bad name fails at start-up with a
 * clear message rather than as a failed activity in the middle of a search.
 *
 * @example
 * export const unitTests = defineEvaluator({
 *   name: 'unit-tests',
 *   async run(trajectory, { options, signal }) {
 *     const { passed, total } = await runTests(lastCode(trajectory), { suite: options.suite, signal });
 *     return { score: passed / total, reasoning: `${passed}/${total} tests pass` };
 *   },
 * });
 */
export function defineEvaluator(def: EvaluatorDefinition): EvaluatorDefinition {
  if (!def || typeof def !== 'object') throw new InvalidConfigError('an evaluator must be an object with a name and a run function');
  const { name } = def;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new InvalidConfigError(
      `invalid evaluator name ${JSON.stringify(name)}: use 1-100 letters, digits, or _ . : / - (starting with a letter, digit or _)`,
    );
  }
  if (name === LLM_EVALUATOR_NAME) {
    throw new InvalidConfigError(`the evaluator name "${LLM_EVALUATOR_NAME}" is reserved for grove's built-in LLM evaluator: pick another name`);
  }
  if (typeof def.run !== 'function') throw new InvalidConfigError(`evaluator "${name}" has no run function`);
  if (def.fast !== undefined && typeof def.fast !== 'boolean') throw new InvalidConfigError(`evaluator "${name}": fast must be a boolean`);
  if (def.version !== undefined && (typeof def.version !== 'string' || def.version === '')) throw new InvalidConfigError(`evaluator "${name}": version must be a non-empty string`);
  return def;
}

/**
 * Runs a custom evaluator and checks what it returns. A score that is not a number in [0, 1]
 * and a throw both become a non-retryable `GroveEvaluatorFailed` naming the evaluator:
 * retrying the same trajectory would give the same answer. Two exceptions: an
 * `ApplicationFailure` the evaluator throws on purpose passes through unchanged (so an
 * evaluator that calls a flaky service can ask for a retry), and after cancellation the
 * cancellation is what surfaces.
 *
 * @example
 * const { score } = await runEvaluator(unitTests, trajectory, { options: {} });
 */
export async function runEvaluator(def: EvaluatorDefinition, trajectory: Message[], ctx: EvaluatorContext): Promise<EvaluatorOutput> {
  let out: unknown;
  try {
    out = await def.run(trajectory, ctx);
  } catch (err) {
    if (ctx.signal?.aborted) throw ctx.signal.reason ?? err;
    if (err instanceof ApplicationFailure) throw err;
    throw ApplicationFailure.create({
      message: `evaluator "${def.name}" threw: ${describeError(err)}`,
      type: EvaluatorFailure.Failed,
      nonRetryable: true,
      cause: err instanceof Error ? err : undefined,
    });
  }
  const problem = checkOutput(out);
  if (problem) {
    throw ApplicationFailure.create({ message: `evaluator "${def.name}" ${problem}`, type: EvaluatorFailure.Failed, nonRetryable: true });
  }
  return out as EvaluatorOutput;
}

function checkOutput(out: unknown): string | undefined {
  if (!out || typeof out !== 'object') return `returned ${describeValue(out)} instead of { score, reasoning? }`;
  const { score, reasoning } = out as { score?: unknown; reasoning?: unknown };
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    return `returned score ${describeValue(score)}: a score must be a number in [0, 1]`;
  }
  if (reasoning !== undefined && typeof reasoning !== 'string') return `returned reasoning ${describeValue(reasoning)}: reasoning must be a string`;
  return undefined;
}

function describeValue(v: unknown): string {
  if (typeof v === 'number' || v === undefined) return String(v);
  try {
    return JSON.stringify(v)?.slice(0, 100) ?? String(v);
  } catch {
    return String(v);
  }
}

function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}`;
  return describeValue(err);
}
