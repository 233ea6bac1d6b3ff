import { shorten } from '../conversation/preview';
import { plural } from '../runs/run-figures';
import { describeVerdict } from './describe-verdict';

type Json = Record<string, any>;

/**
 * What a completed run's result claims and who decided it, in one line — the words every
 * surface uses (`grove run`, `result`, `show`, the viewer): `judged solved by smollm2, the model
 * that wrote it; not verified`, `all checks passed (by deterministic checks)`, `not all checks
 * passed (by deterministic checks): lowercase#1 failed`, `fixed: 3/3 tests passed in the
 * sandbox`; undefined for a result that claims nothing (generate, session).
 *
 * @example
 * verdictLine({ success: true, checks: [], verdict: { by: 'checks', verified: true } }); // 'all checks passed (by deterministic checks)'
 */
export function verdictLine(result: Json): string | undefined {
  if (typeof result.isSolution === 'boolean') return describeVerdict(result.verdict, { ok: result.isSolution, yes: 'solved', no: 'not solved' });
  if (typeof result.success !== 'boolean') return undefined;
  // A code fixer: what running the code with the tests in the sandbox showed (the tests decided).
  if (Array.isArray(result.attempts)) return codeFixerVerdict(result);
  const line = describeVerdict(result.verdict, { ok: result.success, yes: 'all checks passed', no: 'not all checks passed' });
  const failed = ((result.checks ?? []) as { name: string; passed: boolean; skipped?: boolean }[]).filter((c) => !c.passed);
  // Every check passed, yet no success: an extraction whose answer never matched its schema.
  if (!result.success && failed.length === 0) return describeVerdict(result.verdict, { ok: false, yes: '', no: 'no output: the answer does not match the extract schema' });
  return failed.length === 0 ? line : `${line}: ${failed.map((c) => `${c.name} ${c.skipped ? 'not checked' : 'failed'}`).join(', ')}`;
}

/**
 * What running a code fixer's chosen code with the tests in the sandbox showed, and what it
 * took. A run given no tests is never called fixed: running without an error is all that was
 * checked, and the line says so.
 *
 * @example
 * codeFixerVerdict(result); // 'fixed: 3/3 tests passed in the sandbox (2 attempts, 1 feedback round)'
 */
export function codeFixerVerdict(result: Json): string {
  const { outcome } = result;
  const took = `${plural(result.calls, 'attempt')}, ${plural(result.retries, 'feedback round')}`;
  if (!outcome) return `not fixed: no attempt ran (${took})`;
  if (result.success && outcome.tests) return `fixed: ${outcome.tests.passed}/${outcome.tests.total} tests passed in the sandbox (${took})`;
  if (result.success) return `ran without error in the sandbox; no tests were given, so nothing checked what it does (${took})`;
  const error = outcome.error ? `${outcome.error.kind} error${outcome.error.line ? ` at line ${outcome.error.line}` : ''}: ${shorten(String(outcome.error.message).trim().split('\n')[0], 200)}` : 'it did not pass';
  const tests = outcome.tests ? `${outcome.tests.passed}/${outcome.tests.total} tests passed${outcome.tests.completed === false ? ' before the tests stopped early' : ''}; ` : '';
  const chosen = ((result.attempts ?? []) as { sampleId: number; cut?: boolean }[]).find((a) => a.sampleId === result.activeSampleId);
  const cut = chosen?.cut ? 'its answer was cut at max_tokens; ' : '';
  return `not fixed: ${error} (${tests}${cut}${took})`;
}
