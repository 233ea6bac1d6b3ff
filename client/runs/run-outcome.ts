import { WorkflowFailedError, type Client } from '@temporalio/client';
import { runState, type RunState } from './run-state';

/**
 * grove's exit codes, for `grove run`, `grove result` and `grove resume`: 0 only when the run
 * succeeded (an answer, every check passed, a solution found), 3 when it finished without a
 * solution, 1 when it failed (or was cancelled, terminated or timed out), 2 for a usage mistake.
 */
export const EXIT = { succeeded: 0, failed: 1, usage: 2, unsolved: 3 } as const;

/** How a finished run ended, with its result when it completed. */
export interface RunOutcome {
  state: RunState;
  /** The workflow's result (completed runs only). */
  result?: unknown;
  /** Whether it found what it was asked for: `generate` answered, `airetry` passed every check, `agent` found a solution. */
  solved: boolean;
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
  if (!completed) return { state, solved: false, exitCode: EXIT.failed };
  const solved = isSolved(result);
  return { state, result, solved, exitCode: solved ? EXIT.succeeded : EXIT.unsolved };
}
