import type { HumanAction } from '../schemas/steering';
import type { PendingApproval } from '../steering/approvals';
import type { SessionTreeView } from './message-tree';

type ViewNode = SessionTreeView['nodes'][number];

/**
 * A session's message tree as text, one line per message, abandoned branches marked where they
 * hang off the live conversation:
 * ```
 * #0 system t0: Act as a helpful AI assistant
 * #1 user (ana) t1: What is the capital of France?
 * ├─ #2 assistant t1: Lyon.  [abandoned by rewind 1]
 * │  #3 user (ana) t2: Are you sure?  [abandoned by rewind 1]
 * └─ #4 assistant t1: Paris.  [replacement, rewind 1 by ana; head]
 * ```
 *
 * @example
 * console.log(formatSessionTree(await handle.query('tree')));
 */
export function formatSessionTree(view: SessionTreeView): string {
  const children = new Map<number | null, ViewNode[]>();
  for (const node of view.nodes) {
    const list = children.get(node.parentId) ?? [];
    list.push(node);
    children.set(node.parentId, list);
  }
  const lines: string[] = [];
  const stack: { node: ViewNode; prefix: string; connector: string }[] = [];
  const roots = children.get(null) ?? [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i], prefix: '', connector: '' });
  while (stack.length > 0) {
    const { node, prefix, connector } = stack.pop()!;
    lines.push(`${prefix}${connector}${nodeLine(node, node.id === view.head)}`);
    const kids = children.get(node.id) ?? [];
    const childPrefix = prefix + (connector === '' ? '' : connector === '├─ ' ? '│  ' : '   ');
    // A single child continues its parent's column, so a conversation reads as a list and only rewinds branch.
    if (kids.length === 1) {
      stack.push({ node: kids[0], prefix: childPrefix, connector: '' });
      continue;
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], prefix: childPrefix, connector: i === kids.length - 1 ? '└─ ' : '├─ ' });
  }
  return lines.join('\n');
}

function nodeLine(node: ViewNode, head: boolean): string {
  const who = node.by && node.role !== 'assistant' && node.kind !== 'feedback' ? ` (${node.by})` : '';
  const kind = node.kind === 'feedback' ? ` feedback${node.by ? ` (${node.by})` : ''}` : '';
  const marks: string[] = [];
  if (node.kind === 'replacement') marks.push(`replacement, rewind ${node.rewind} by ${node.by}`);
  if (node.kind === 'correction') marks.push('rewind refused');
  if (node.kind === 'rejection') marks.push('call refused');
  if (node.kind === 'dropped') marks.push('calls dropped');
  if (node.abandoned) marks.push(`abandoned by rewind ${node.abandonedBy}`);
  if (head) marks.push('head');
  return `#${node.id} ${node.role}${who}${kind} t${node.turn}: ${node.preview}${marks.length ? `  [${marks.join('; ')}]` : ''}`;
}

/**
 * The Temporal UI's "current details" of a session: counters, pending approvals (with the
 * command that decides them), the rewinds with what they pruned, the latest human actions, and
 * the message tree.
 */
export function formatSessionDetails(
  view: SessionTreeView,
  info: { workflowId: string; turns: number; modelCalls: number; pending: PendingApproval[]; actions: readonly HumanAction[]; closed?: string },
): string {
  const live = view.nodes.filter((n) => !n.abandoned).length;
  const parts = [
    `**session** — ${info.closed ? `closed by ${info.closed}` : 'open'}, turn ${info.turns}, ${live} live messages, ${view.nodes.length - live} abandoned, ${info.modelCalls} model calls`,
  ];
  if (info.pending.length > 0) {
    parts.push(
      `**waiting for approval**\n${info.pending
        .map((p) => `- \`${p.callId}\` ${p.tool}(${p.arguments}) at ${p.where} — \`grove approve ${info.workflowId} --call ${p.callId}\` (or \`--reject\`)`)
        .join('\n')}`,
    );
  }
  if (view.rewinds.length > 0) {
    parts.push(
      `**rewinds**\n${view.rewinds
        .map((r) => `- rewind ${r.seq} by ${r.by} (${r.source}): assistant message ${r.n} (#${r.targetId}) replaced by #${r.replacementId}; ${r.abandoned} message${r.abandoned === 1 ? '' : 's'} abandoned`)
        .join('\n')}`,
    );
  }
  const recent = info.actions.slice(-5);
  if (recent.length > 0) {
    parts.push(`**latest actions**\n${recent.map((a) => `- ${a.seq}. ${a.by} ${a.action}${a.target ? ` ${a.target}` : ''}${a.detail ? `: ${a.detail}` : ''}`).join('\n')}`);
  }
  parts.push(`\`\`\`\n${formatSessionTree(view)}\n\`\`\``);
  return parts.join('\n\n');
}
