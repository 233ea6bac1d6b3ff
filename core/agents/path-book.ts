import type { ConversationInput } from '../hash/conversation-refs';
import { messageRef, pathRef, type PathRecord, type Ref } from '../hash/refs';
import type { Message } from '../schemas/messages';
import { SampleTree } from '../tree/sample-tree';
import type { AgentNode } from './agent-node';

/** A search tree whose root holds the prompt. */
export function createAgentTree(prompt: Message[]): SampleTree<AgentNode> {
  const record: PathRecord = { parent: null, add: prompt.map(messageRef) };
  return SampleTree.create<AgentNode>({ ref: pathRef(record), pending: record, prompt });
}

/**
 * The activity input for a node's trajectory: its ref, plus whatever the store may not have
 * yet (records of nodes not confirmed written, and the prompt until it is).
 *
 * @example
 * const input = trajectoryInput(tree, node.id);
 * const result = await port.evaluate({ evaluator, trajectory: input });
 * markWritten(tree, node.id, input);
 */
export function trajectoryInput(tree: SampleTree<AgentNode>, nodeId: number, extra?: { record: PathRecord; messages?: Message[] }): ConversationInput {
  const paths: Record<Ref, PathRecord> = {};
  const messages: Record<Ref, Message> = {};
  for (const node of tree.pathToRoot(nodeId)) {
    if (node.data.pending) paths[refOf(tree, node.id)] = node.data.pending;
    for (const m of [...(node.data.prompt ?? []), ...(node.data.inline ?? [])]) messages[messageRef(m)] = m;
  }
  let path = refOf(tree, nodeId);
  if (extra) {
    path = pathRef(extra.record);
    paths[path] = extra.record;
    for (const m of extra.messages ?? []) messages[messageRef(m)] = m;
  }
  const writes = Object.keys(paths).length + Object.keys(messages).length > 0 ? { paths, messages } : undefined;
  return writes ? { path, writes } : { path };
}

/** A node's trajectory ref; a node whose ref was compacted away at a handover is never expanded or resolved again. */
export function refOf(tree: SampleTree<AgentNode>, nodeId: number): Ref {
  const ref = tree.node(nodeId).data.ref;
  if (ref === undefined) throw new Error(`n${nodeId} has no trajectory ref (it was compacted away as a finished leaf)`);
  return ref;
}

/** After an activity carrying `input` (built for `nodeId`) succeeded: the records it carried are in the store. */
export function markWritten(tree: SampleTree<AgentNode>, nodeId: number, input: ConversationInput): void {
  if (!input.writes) return;
  const written = new Set(Object.keys(input.writes.paths ?? {}));
  for (const node of tree.pathToRoot(nodeId)) {
    if (node.data.ref !== undefined && written.has(node.data.ref) && (node.data.pending || node.data.prompt || node.data.inline)) {
      const { pending: _p, prompt: _m, inline: _i, ...rest } = node.data;
      tree.setData(node.id, rest);
    }
  }
}
