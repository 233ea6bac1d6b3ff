import type { RunOutcome } from '../../runs/run-outcome';
import { describeRunState } from '../../runs/run-state';
import type { SessionResult } from '../../../core/session/session-result';
import { describeRun } from '../../../core/runs/describe-run';
import { formatMessage } from './session-text';

/** A run that did not complete, as `grove run` / `grove result` report it: one line, exit code 1. */
export class RunEndedError extends Error {
  override name = 'GroveRunEnded';
}

/**
 * Prints how a run ended, as `grove run`, `grove result` and `grove resume` do, and returns the
 * exit code (see `EXIT`): the answer, whether it succeeded and the tree for a completed run;
 * with `json`, one JSON object — also for a run that failed, was cancelled, terminated or timed
 * out (`status` and `error`). Without `json`, a run that did not complete throws a
 * `RunEndedError` whose message is the one line `grove` prints.
 *
 * @example
 * return printOutcome(await grove.outcome(id), io, { json: values.json, link });
 */
export function printOutcome(outcome: RunOutcome, io: { out: (line: string) => void }, opts: { json?: boolean; link?: string } = {}): number {
  const { state } = outcome;
  const workflowId = state.workflowId;
  if (outcome.result === undefined && state.temporalStatus !== 'COMPLETED') {
    if (!opts.json) throw new RunEndedError(`${workflowId} ${describeRunState(state)}`);
    io.out(
      JSON.stringify({
        workflowId,
        status: state.status,
        error: { message: state.reason ?? state.status, ...(state.failureType ? { type: state.failureType } : {}) },
        ...(state.calls !== undefined ? { calls: state.calls } : {}),
      }),
    );
    return outcome.exitCode;
  }
  if (opts.json) {
    // The figures under the names every surface uses (docs/runs.md, "The figures"), beside the result's own fields.
    io.out(JSON.stringify({ workflowId, status: state.status, ...(outcome.result as object), ...describeRun(state.kind, outcome.result).figures }));
    return outcome.exitCode;
  }
  const result = outcome.result as Record<string, any>;
  const where = `workflow: ${workflowId}${opts.link ? `  ${opts.link}` : ''}`;
  for (const line of completedRunLines(state.kind, result)) io.out(line);
  io.out(where);
  return outcome.exitCode;
}

/**
 * A completed run in words, outcome first: the headline (how it ended, what it claims and who
 * decided, what it took), then the answer labelled for what it is — so a stopped search's best
 * trajectory reads as `best answer found (score 0.20; not a solution)`, never as the result —
 * then the tree. `grove run`, `grove result` and `grove resume` print these lines.
 *
 * @example
 * completedRunLines('airetry', result);
 * // ['completed: all checks passed (by deterministic checks) — 5 model calls (10 samples), 298 tokens; 4 retries', '', 'answer:', 'yellow', '', <tree>]
 */
export function completedRunLines(kind: string, result: Record<string, any>): string[] {
  const run = describeRun(kind, result);
  const body = kind === 'session' ? (result as SessionResult).conversation.map(formatMessage) : [`${run.answerLabel}:`, run.answer];
  const tree = typeof result.treeText === 'string' && result.treeText ? ['', result.treeText] : [];
  return [run.headline, '', ...body, ...tree];
}

export { verdictLine } from '../../../core/verdicts/verdict-line';
