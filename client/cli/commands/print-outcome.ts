import type { RunOutcome } from '../../runs/run-outcome';
import { describeRunState } from '../../runs/run-state';
import type { CodeFixerResult } from '../../../core/code/code-fixer-input';
import type { SessionResult } from '../../../core/session/session-result';
import { codeFixerLines } from './code-fixer-text';
import { sessionLines } from './session-text';
import { describeVerdict } from '../../../core/verdicts/describe-verdict';

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
    io.out(JSON.stringify({ workflowId, status: state.status, ...(outcome.result as object) }));
    return outcome.exitCode;
  }
  const result = outcome.result as Record<string, any>;
  const where = `workflow: ${workflowId}${opts.link ? `  ${opts.link}` : ''}`;
  if (result.kind === 'agent') {
    io.out(result.answer ?? '(no final answer: the best trajectory did not finish)');
    // "solved" is the verdict's word: the stop is told apart, so an unverified verdict never reads as a bare "solved".
    const stop = result.stop.kind === 'solved' ? 'stopped' : result.stop.kind;
    io.out(
      `\n${verdictLine(result)}: score ${result.score.toFixed(2)}, ${stop} (${result.stop.message}); ` +
        `${result.counters.llmCalls} model calls, ${result.counters.toolRuns} tool runs, ${result.nodes} nodes`,
    );
    io.out(result.treeText);
    io.out(where);
    return outcome.exitCode;
  }
  if (state.kind === 'code-fixer' || state.kind === 'session') {
    const lines = state.kind === 'session' ? sessionLines(result as SessionResult) : [...codeFixerLines(result as CodeFixerResult), result.treeText];
    for (const line of [...lines, where]) io.out(line);
    return outcome.exitCode;
  }
  const output = result.output;
  io.out(output === undefined || output === null ? '(no output)' : typeof output === 'string' ? output : JSON.stringify(output));
  if (typeof result.success === 'boolean') {
    io.out(`\n${verdictLine(result)}; ${result.calls} samples, ${result.retries} retries`);
    io.out(result.treeText);
  }
  io.out(where);
  return outcome.exitCode;
}

/**
 * What a completed run's result claims and who decided it, in one line (`grove run`, `result`,
 * `show`): `judged solved by smollm2, the model that wrote it; not verified`, `all checks passed
 * (by deterministic checks)`, `not all checks passed (by deterministic checks): lowercase#1
 * failed`; undefined for a result that claims nothing (generate).
 *
 * @example
 * verdictLine({ success: true, checks: [], verdict: { by: 'checks', verified: true } }); // 'all checks passed (by deterministic checks)'
 */
export function verdictLine(result: Record<string, any>): string | undefined {
  if (typeof result.isSolution === 'boolean') return describeVerdict(result.verdict, { ok: result.isSolution, yes: 'solved', no: 'not solved' });
  if (typeof result.success !== 'boolean') return undefined;
  // A code fixer: what running the code with the tests in the sandbox showed (the tests decided).
  if (Array.isArray(result.attempts)) return codeFixerLines(result as CodeFixerResult)[2];
  const line = describeVerdict(result.verdict, { ok: result.success, yes: 'all checks passed', no: 'not all checks passed' });
  const failed = ((result.checks ?? []) as { name: string; passed: boolean; skipped?: boolean }[]).filter((c) => !c.passed);
  // Every check passed, yet no success: an extraction whose answer never matched its schema.
  if (!result.success && failed.length === 0) return describeVerdict(result.verdict, { ok: false, yes: '', no: 'no output: the answer does not match the extract schema' });
  return failed.length === 0 ? line : `${line}: ${failed.map((c) => `${c.name} ${c.skipped ? 'not checked' : 'failed'}`).join(', ')}`;
}
