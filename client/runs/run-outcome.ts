import { WorkflowFailedError, type Client } from '@temporalio/client';
import { runState, type RunState } from './run-state';

/**
 * grove's exit codes, for `grove run`, `grove result` and `grove resume`: 0 only when the run
 * succeeded and nothing but tests, deterministic checks or a custom evaluator decided it (or it
 * made no claim to check: a `generate` answer), 4 when it claims success that only a model
 * judged (an LLM judge — perhaps the very model that answered; not verified), 3 when it finished
 * without a solution, 1 when it failed (or was cancelled, terminated or timed out), 2 for a usage
 * mistake. A script that checks for 0 never takes a model's opinion for a verified success.
 */
export const EXIT = { succeeded: 0, failed: 1, usage: 2, unsolved: 3, unverified: 4 } as const;

/** How a finished run ended, with its result when it completed. */
export interface RunOutcome {
  state: RunState;
  /** The workflow's result (completed runs only). */
  result?: unknown;
  /** Whether it found what it was asked for: `generate` answered, `airetry` passed every check, `agent` found a solution. */
  solved: boolean;
  /** Whether that success is verified: decided by tests, deterministic checks or a custom evaluator, not by a model's opinion. */
  verified: boolean;
  exitCode: (typeof EXIT)[keyof typeof EXIT];
}

/**
 * Whether a completed run's result is a success: `success` (airetry), `isSolution` (agent), or
 * any other result (generate answered).
 *
 * @example
 * isSolved({ isSolution: false }); // false
 */
export function isSolved(result: unknown): boolean {
  const r = result as { success?: unknown; isSolution?: unknown } | null;
  if (typeof r?.success === 'boolean') return r.success;
  if (typeof r?.isSolution === 'boolean') return r.isSolution;
  return true;
}

/**
 * Whether a result's success can be taken as verified: a result that claims one (`success`,
 * `isSolution`) must carry a verdict that is `verified`; a result without such a claim
 * (generate) has nothing to verify. A claim without a verdict (a run from before grove recorded
 * who decided) is not verified.
 *
 * @example
 * isVerified({ isSolution: true, verdict: { by: 'judge', model: 'smollm2', selfJudged: true, verified: false } }); // false
 */
export function isVerified(result: unknown): boolean {
  const r = result as { success?: unknown; isSolution?: unknown; verdict?: { verified?: unknown } } | null;
  const claims = typeof r?.success === 'boolean' || typeof r?.isSolution === 'boolean';
  return !claims || r?.verdict?.verified === true;
}

/** The exit code of a completed run's result (see {@link EXIT}). */
export function exitCodeOf(result: unknown): RunOutcome['exitCode'] {
  if (!isSolved(result)) return EXIT.unsolved;
  return isVerified(result) ? EXIT.succeeded : EXIT.unverified;
}

/**
 * Waits for a run to end (its latest run, following continue-as-new) and says how: its result,
 * whether it succeeded, and the exit code grove's commands use.
 *
 * @example
 * const { solved, result, state } = await runOutcome(client, 'agent-1a2b');
 */
export async function runOutcome(client: Client, workflowId: string): Promise<RunOutcome> {
  let result: unknown;
  let completed = false;
  try {
    result = await client.workflow.getHandle(workflowId).result();
    completed = true;
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
  }
  const state = await runState(client, workflowId);
  if (!completed) return { state, solved: false, verified: false, exitCode: EXIT.failed };
  return { state, result, solved: isSolved(result), verified: isVerified(result), exitCode: exitCodeOf(result) };
}
