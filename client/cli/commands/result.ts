import { GroveClient } from '../../grove-client';
import { parseCommandArgs, UsageError } from '../usage-error';
import { printOutcome } from './print-outcome';

export const RESULT_HELP = `grove result WORKFLOW_ID [--json]
  Prints a run's result (waiting for it to end): the answer, whether it succeeded, its tree.
  --json prints one JSON object, also for a run that failed ({"status":"failed","error":{...}}).
  Exit code: 0 succeeded, 3 finished without a solution, 1 failed/cancelled/terminated/timed out.`;

/** `grove result <workflowId>` */
export async function resultCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseCommandArgs('result', args, { json: { type: 'boolean' } }, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('result: WORKFLOW_ID is required');
  const grove = await GroveClient.connect();
  try {
    return printOutcome(await grove.outcome(workflowId), io, { json: values.json });
  } finally {
    await grove.close();
  }
}
