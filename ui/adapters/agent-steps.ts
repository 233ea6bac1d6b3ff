import type { AgentNode } from '../../core/agents/agent-node';
import { messageRef, type PathRecord, type Ref } from '../../core/hash/refs';
import type { Message } from '../../core/schemas/messages';
import type { SampleTree } from '../../core/tree/sample-tree';
import type { TreeNode } from '../../core/tree/tree-node';
import type { MessageDelta } from '../model/view-tree';
import { messageLabel } from './labels';
import type { StoreReader } from './run-adapter';

/** Trees up to this size get labels from their full messages (a bigger one keeps the search's short previews). */
export const FULL_LABEL_NODES = 2_000;

/** Labels by trajectory ref: a ref names its content forever, so a label once read never changes. */
const labelCache = new Map<Ref, string>();
const CACHE_SIZE = 100_000;

/** Messages a search's tree carries itself (the prompt, a person's replacement answer, refusals), by ref. */
export function knownMessages(tree: SampleTree<AgentNode>): Map<Ref, Message> {
  const known = new Map<Ref, Message>();
  for (const node of tree.all()) for (const m of [...(node.data.prompt ?? []), ...(node.data.inline ?? [])]) known.set(messageRef(m), m);
  return known;
}

/**
 * What one search step added to the conversation, read from the message store (the tree keeps
 * refs, never messages) — or why it cannot be read.
 *
 * @example
 * const step = await readStep(node, store, knownMessages(tree));
 * if ('delta' in step) show(step.delta.add);
 */
export async function readStep(node: TreeNode<AgentNode>, store: StoreReader, known: Map<Ref, Message>): Promise<{ delta: MessageDelta } | { note: string }> {
  const d = node.data;
  if (d.ref === undefined) return { note: 'its messages were let go at a continue-as-new handover (a finished leaf off the best trajectory)' };
  const record = (d.pending ?? (await store.get(d.ref))) as PathRecord | undefined;
  if (!record) return { note: `the message store (${store.describe()}) has no trajectory ${d.ref} (yet)` };
  const add: Message[] = [];
  for (const ref of record.add) {
    const message = known.get(ref) ?? ((await store.get(ref)) as Message | undefined);
    if (!message) return { note: `the message store (${store.describe()}) has no message ${ref} (yet)` };
    add.push(message);
  }
  return { delta: record.keep === undefined ? { add } : { keep: record.keep, add } };
}

/**
 * Labels of search steps from their whole assistant message — every argument of a tool call,
 * the first words of an answer — where the tree's own previews stop at 40 characters. Read 64
 * at a time and remembered by ref; a step whose messages are not (yet) in the store keeps its
 * preview.
 *
 * @example
 * const labels = await stepLabels(tree, store); // Map { 1 => 'multiply(a: 76382.76173, b: 152765.52346)', ... }
 */
export async function stepLabels(tree: SampleTree<AgentNode>, store: StoreReader): Promise<Map<number, string>> {
  const labels = new Map<number, string>();
  const todo: TreeNode<AgentNode>[] = [];
  for (const node of tree.all()) {
    if (node.parent === null || node.data.ref === undefined) continue;
    const cached = labelCache.get(node.data.ref);
    if (cached !== undefined) labels.set(node.id, cached);
    else todo.push(node);
  }
  const known = todo.length ? knownMessages(tree) : new Map<Ref, Message>();
  for (let i = 0; i < todo.length; i += 64) {
    await Promise.all(
      todo.slice(i, i + 64).map(async (node) => {
        const step = await readStep(node, store, known).catch(() => undefined);
        const answer = step && 'delta' in step ? step.delta.add.find((m) => m.role === 'assistant') : undefined;
        if (!answer) return;
        const label = messageLabel(answer);
        labels.set(node.id, label);
        if (labelCache.size >= CACHE_SIZE) labelCache.delete(labelCache.keys().next().value!);
        labelCache.set(node.data.ref!, label);
      }),
    );
  }
  return labels;
}
