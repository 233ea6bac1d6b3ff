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
