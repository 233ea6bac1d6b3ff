import { GroveClient } from '../../grove-client';
import { CannotResumeError } from '../../runs/resume-plan';
import { parseCommandArgs, UsageError } from '../usage-error';
import { OVERRIDE_FLAGS, overridesFromFlags } from './override-flags';
import { printOutcome } from './print-outcome';

/** `grove resume <workflowId>` */
export async function resumeCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseCommandArgs('resume', args, { ...OVERRIDE_FLAGS, 'no-wait': { type: 'boolean' }, json: { type: 'boolean' } }, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('resume: WORKFLOW_ID is required');
  const overrides = overridesFromFlags('resume', values);
  const grove = await GroveClient.connect();
  try {
    let resumed;
    try {
      resumed = await grove.resume(workflowId, { overrides });
    } catch (err) {
      if (err instanceof CannotResumeError) throw new UsageError(`resume: cannot resume ${workflowId}: ${err.message}`);
      throw err;
    }
    const { plan } = resumed;
    const line =
      `${workflowId}: ${plan.why}; ${plan.keptResults} result${plan.keptResults === 1 ? '' : 's'} kept in its history` +
      (plan.reissuedResults > 0 ? `, ${plan.reissuedResults} made again from the message store` : '') +
      ` (new run ${resumed.runId})`;
    if (values['no-wait']) {
      io.out(values.json ? JSON.stringify({ workflowId, runId: resumed.runId, resetEventId: plan.resetEventId, keptResults: plan.keptResults }) : line);
      return 0;
    }
    if (!values.json) process.stderr.write(`grove: ${line}\n`);
    return printOutcome(await grove.outcome(workflowId), io, { json: values.json });
  } finally {
    await grove.close();
  }
}
