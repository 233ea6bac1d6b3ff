import { GroveClient } from '../../grove-client';
import { describeRunState } from '../../runs/run-state';
import { parseCommandArgs, UsageError } from '../usage-error';
import { formatMessage } from './session-text';
import { describeRun } from '../../../core/runs/describe-run';

export async function progressCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  await withRun('progress', args, async (grove, workflowId) => io.out(JSON.stringify(await grove.progress(workflowId), null, 2)));
}

export async function cancelCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  await withRun('cancel', args, async (grove, workflowId) => {
    await grove.cancel(workflowId);
    io.out(`cancellation requested for ${workflowId}`);
  });
}

async function withRun(command: string, args: string[], fn: (grove: GroveClient, workflowId: string) => Promise<void>): Promise<void> {
  const { positionals } = parseCommandArgs(command, args, {}, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError(`${command}: WORKFLOW_ID is required`);
  const grove = await GroveClient.connect();
  try {
    await fn(grove, workflowId);
  } finally {
    await grove.close();
  }
}

export async function treeCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values, positionals } = parseCommandArgs('tree', args, { answers: { type: 'boolean' }, json: { type: 'boolean' } }, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('tree: WORKFLOW_ID is required');
  const grove = await GroveClient.connect();
  try {
    const view = await grove.tree(workflowId, { answers: values.answers });
    if (values.json) {
      io.out(JSON.stringify({ workflowId, status: view.state.status, kind: view.kind, tree: view.tree, ...(view.note ? { note: view.note } : {}) }));
      return;
    }
    const ended = view.state.status !== 'running' && view.state.temporalStatus !== 'COMPLETED';
    if (ended) io.out(`${workflowId} ${describeRunState(view.state)}`);
    if (view.note) io.out(view.note);
    // --answers prints airetry's samples whole; an agent's or a session's lines already carry each step, so say where the whole text is.
    if (values.answers && view.kind !== 'airetry') io.out(`(--answers adds each sample's answer to airetry and code-fixer trees; this ${view.kind}'s lines already show each step — its tool call or the first words of its answer — and \`grove show ${workflowId}\` prints the ${view.kind === 'session' ? 'conversation' : 'best trajectory'} whole)`);
    if (view.text !== undefined) io.out(view.text);
  } finally {
    await grove.close();
  }
}

export async function showCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values, positionals } = parseCommandArgs('show', args, { json: { type: 'boolean' } }, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('show: WORKFLOW_ID is required');
  const grove = await GroveClient.connect();
  try {
    const { conversation, state, note, result } = await grove.conversation(workflowId);
    if (values.json) io.out(JSON.stringify(conversation ?? { workflowId, status: state.status, note }));
    else if (conversation) {
      // Outcome first: how the run ended, what it claims and who decided, what it took.
      if (result && typeof result === 'object') io.out(`${describeRun(state.kind, result).headline}\n`);
      for (const message of conversation) io.out(formatMessage(message));
    } else io.out(note ?? `${workflowId} ${describeRunState(state)}`);
  } finally {
    await grove.close();
  }
}
