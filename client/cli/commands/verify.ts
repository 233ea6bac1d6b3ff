import { whoDecided } from '../../../core/verdicts/describe-verdict';
import type { VerifyReport } from '../../../core/verdicts/claims';
import { GroveClient } from '../../grove-client';
import { parseCommandArgs, UsageError } from '../usage-error';

/** `grove verify <workflowId>`: exit 0 when every recomputed claim holds, 1 when one does not. */
export async function verifyCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseCommandArgs('verify', args, { json: { type: 'boolean' } }, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('verify: WORKFLOW_ID is required');
  const grove = await GroveClient.connect();
  try {
    const report = await grove.verify(workflowId);
    if (values.json) io.out(JSON.stringify(report));
    else for (const line of formatVerifyReport(report)) io.out(line);
    return report.holds ? 0 : 1;
  } finally {
    await grove.close();
  }
}

/**
 * A verify report as lines: who decided, each claim (✓ holds, ✗ does not, ? not recomputable)
 * with what was recomputed on which output, and the conclusion naming the claims that fail.
 *
 * @example
 * formatVerifyReport(report).join('\n');
 */
export function formatVerifyReport(report: VerifyReport): string[] {
  const mark = (holds: boolean | null) => (holds === true ? '✓' : holds === false ? '✗' : '?');
  const ended = report.claims.some((c) => c.claim === 'the run completed' && c.holds === false);
  const lines = [`${report.workflowId} (${report.kind}): ${ended ? 'nothing was decided: the run did not complete' : whoDecided(report.verdict)}`];
  for (const c of report.claims) lines.push(`  ${mark(c.holds)} ${c.claim}: ${c.detail}`);
  const failing = report.claims.filter((c) => c.holds === false);
  const checked = report.claims.filter((c) => c.holds !== null).length;
  const open = report.claims.length - checked;
  const tail = `${checked} recomputed${open > 0 ? `, ${open} not recomputable` : ''}`;
  lines.push(
    failing.length === 0
      ? `the run's claims hold (${tail})`
      : `${failing.length} claim${failing.length === 1 ? ' does' : 's do'} not hold: ${failing.map((c) => c.claim).join('; ')} (${tail})`,
  );
  return lines;
}
