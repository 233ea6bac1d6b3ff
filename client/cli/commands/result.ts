import { GroveClient } from '../../grove-client';
import { parseCommandArgs, UsageError } from '../usage-error';
import { printOutcome } from './print-outcome';

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
