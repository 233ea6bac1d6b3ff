import { plural } from '../../../core/runs/run-figures';
import { GroveClient } from '../../grove-client';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';

type Io = { out: (line: string) => void };

const BY = { by: { type: 'string' }, json: { type: 'boolean' } } as const;

/** `grove rewind ...` */
export async function rewindCommand(args: string[], io: Io): Promise<void> {
  const { values, workflowId } = parse('rewind', args, {
    ...BY,
    message: { type: 'string' },
    id: { type: 'string' },
    node: { type: 'string' },
    content: { type: 'string' },
    feedback: { type: 'string' },
  });
  const n = numberOption('rewind', 'message', values.message);
  const messageId = numberOption('rewind', 'id', values.id);
  const nodeId = nodeOption('rewind', values.node);
  if ([n, messageId, nodeId].filter((v) => v !== undefined).length !== 1) {
    throw new UsageError('rewind: give one of --message N, --id MESSAGE_ID (sessions) or --node NODE_ID (airetry and agent runs)');
  }
  if (nodeId === undefined && values.content === undefined) throw new UsageError('rewind: --content TEXT is required to rewind a session');
  if (nodeId === undefined && values.feedback !== undefined) throw new UsageError('rewind: --feedback goes with --node (for a session, use grove feedback)');
  await withGrove(async (grove) => {
    const result = await grove.steer(values.by).rewind(workflowId, { n, messageId, nodeId, content: values.content, feedback: values.feedback });
    io.out(values.json ? JSON.stringify(result) : describeRewind(result));
  });
}

/** `grove feedback ...` */
export async function feedbackCommand(args: string[], io: Io): Promise<void> {
  const { values, workflowId } = parse('feedback', args, { ...BY, text: { type: 'string' }, node: { type: 'string' } });
  if (!values.text) throw new UsageError('feedback: --text TEXT is required');
  const nodeId = nodeOption('feedback', values.node);
  await withGrove(async (grove) => {
    const result = await grove.steer(values.by).feedback(workflowId, { nodeId, text: values.text! });
    io.out(values.json ? JSON.stringify(result) : `feedback recorded: ${JSON.stringify(result)}`);
  });
}

/** `grove approve ...` */
export async function approveCommand(args: string[], io: Io): Promise<void> {
  const { values, workflowId } = parse('approve', args, { ...BY, call: { type: 'string' }, reject: { type: 'boolean' }, reason: { type: 'string' }, list: { type: 'boolean' } });
  await withGrove(async (grove) => {
    const steer = grove.steer(values.by);
    if (values.list) {
      const pending = await steer.pending(workflowId);
      if (values.json) return io.out(JSON.stringify(pending));
      if (pending.length === 0) return io.out('no tool call is waiting for approval');
      for (const p of pending) io.out(`${p.callId}  ${p.tool}(${p.arguments})  at ${p.where}, waiting since ${new Date(p.requestedAt).toISOString()}`);
      return;
    }
    const outcome = await steer.approve(workflowId, { callId: values.call, decision: values.reject ? 'reject' : 'approve', reason: values.reason });
    io.out(values.json ? JSON.stringify(outcome) : `${outcome.decision === 'approve' ? 'approved' : 'rejected'} ${outcome.callId} (by ${outcome.by})`);
  });
}

/** `grove stop ...` */
export async function stopCommand(args: string[], io: Io): Promise<void> {
  const { values, workflowId } = parse('stop', args, { ...BY, reason: { type: 'string' } });
  await withGrove(async (grove) => {
    await grove.steer(values.by).stop(workflowId, { reason: values.reason });
    io.out(`stop requested for ${workflowId}: it ends with the best answer so far`);
  });
}

/** `grove actions ...` */
export async function actionsCommand(args: string[], io: Io): Promise<void> {
  const { values, workflowId } = parse('actions', args, { json: { type: 'boolean' } });
  await withGrove(async (grove) => {
    const handle = grove.handle(workflowId);
    const { status } = await handle.describe();
    const actions = status.name === 'RUNNING' ? await grove.steer().actions(workflowId) : (((await handle.result()) as { actions?: unknown[] }).actions ?? []);
    if (values.json) return io.out(JSON.stringify(actions));
    if (actions.length === 0) return io.out('no human actions');
    for (const a of actions as { seq: number; at: number; by: string; action: string; target?: string; detail?: string }[]) {
      io.out(`${a.seq}. ${new Date(a.at).toISOString()}  ${a.by}  ${a.action}${a.target ? ` ${a.target}` : ''}${a.detail ? `: ${a.detail}` : ''}`);
    }
  });
}

function parse<O extends Parameters<typeof parseCommandArgs>[2]>(command: string, args: string[], options: O) {
  const { values, positionals } = parseCommandArgs(command, args, options, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError(`${command}: WORKFLOW_ID is required`);
  return { values: values as { [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : string }, workflowId };
}

async function withGrove(fn: (grove: GroveClient) => Promise<void>): Promise<void> {
  const grove = await GroveClient.connect();
  try {
    await fn(grove);
  } finally {
    await grove.close();
  }
}

/** `--node N` (or `nN`): a node id from `grove tree`, named when it is not one. */
function nodeOption(command: string, value: string | undefined): number | undefined {
  const id = numberOption(command, 'node', value?.replace(/^n/, ''));
  if (id !== undefined && (!Number.isInteger(id) || id < 0)) throw new UsageError(`${command}: --node must be a node id from \`grove tree\` (an integer 0 or more, e.g. --node 7), got "${value}"`);
  return id;
}

function describeRewind(result: unknown): string {
  const r = result as { n?: number; targetId?: number; replacementId?: number; abandoned?: number | number[]; resumeFrom?: number; activeSampleId?: number };
  if (r.targetId !== undefined) {
    return `rewound to assistant message ${r.n} (#${r.targetId}): replaced by #${r.replacementId}; ${plural(Number(r.abandoned ?? 0), 'message')} abandoned (kept in the tree)`;
  }
  const abandoned = Array.isArray(r.abandoned) ? r.abandoned.length : 0;
  // A search goes on from a node (n3), an airetry call from a sample.
  const from = r.resumeFrom !== undefined ? `n${r.resumeFrom}` : `sample ${r.activeSampleId}`;
  return `rewound: ${plural(abandoned, 'node')} abandoned (kept in the tree); going on from ${from}`;
}
