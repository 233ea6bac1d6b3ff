import { GroveClient } from '../../grove-client';
import { CannotForkError } from '../../runs/fork';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';
import { OVERRIDE_FLAGS, overridesFromFlags } from './override-flags';
import { printOutcome } from './print-outcome';

/** `grove fork <workflowId> --node N` */
export async function forkCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'fork',
    args,
    {
      ...OVERRIDE_FLAGS,
      node: { type: 'string' },
      subtree: { type: 'boolean' },
      'fresh-stats': { type: 'boolean' },
      'workflow-id': { type: 'string' },
      'no-wait': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    1,
  );
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('fork: WORKFLOW_ID is required');
  const nodeId = numberOption('fork', 'node', values.node?.replace(/^n/, ''));
  if (nodeId === undefined) throw new UsageError('fork: --node N is required (a node id from `grove tree`, e.g. --node 7)');
  if (!Number.isInteger(nodeId) || nodeId < 0) throw new UsageError(`fork: --node must be a node id from \`grove tree ${workflowId}\` (an integer 0 or more, e.g. --node 7), got "${values.node}"`);
  const overrides = overridesFromFlags('fork', values);
  const grove = await GroveClient.connect();
  try {
    let handle;
    try {
      handle = await grove.fork(workflowId, { nodeId, subtree: values.subtree, keepStats: !values['fresh-stats'], overrides, workflowId: values['workflow-id'] });
    } catch (err) {
      if (err instanceof CannotForkError) throw new UsageError(`fork: ${err.message}`);
      throw err;
    }
    if (values['no-wait']) {
      io.out(values.json ? JSON.stringify({ workflowId: handle.workflowId, parent: workflowId, nodeId }) : `started ${handle.workflowId} (fork of ${workflowId} at n${nodeId})`);
      return 0;
    }
    if (!values.json) process.stderr.write(`grove: started ${handle.workflowId}, a fork of ${workflowId} at n${nodeId}\n`);
    return printOutcome(await grove.outcome(handle.workflowId), io, { json: values.json });
  } finally {
    await grove.close();
  }
}
