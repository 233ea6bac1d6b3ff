/**
 * A run's status as grove reports it (`GroveStatus`, `grove list`, `grove show`):
 *
 * - `running`, `succeeded` (solution found / every check passed / answer returned), `exhausted`
 *   (finished without a solution: a budget or the search space ran out), `stopped` (a person
 *   stopped it with `grove stop` before it found a solution; it returns its best so far),
 *   `failed` and `cancelled` are written by the workflow itself;
 * - `terminated` and `timedOut` end a run without running any more workflow code, so the
 *   workflow cannot write them: clients derive them from Temporal's execution status.
 */
export const RUN_STATUSES = ['running', 'succeeded', 'exhausted', 'stopped', 'failed', 'cancelled', 'timedOut', 'terminated'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * How a run that returned ended: `succeeded` when it has what it was asked for, `stopped` when a
 * person stopped it first, else `exhausted`. One rule for every kind of run, so a stopped search
 * and a stopped airetry read alike everywhere.
 *
 * @example
 * endedStatus(false, true) // 'stopped'
 */
export function endedStatus(succeeded: boolean, stoppedByPerson: boolean): Extract<RunStatus, 'succeeded' | 'stopped' | 'exhausted'> {
  if (succeeded) return 'succeeded';
  return stoppedByPerson ? 'stopped' : 'exhausted';
}
