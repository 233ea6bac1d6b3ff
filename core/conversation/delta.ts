import { z } from 'zod';
import { InvalidArgumentError } from '../errors';
import { type Message, MessageSchema } from '../schemas/messages';
import type { SampleTree } from '../tree/sample-tree';
import { deepEqual } from './deep-equal';

/**
 * What a node ADDED to its parent's conversation (DESIGN.md "Data flow"): workflow state then
 * grows with the new messages only, not with the square of the conversation.
 * `keep` is how many of the parent's messages stay (default: all); it lets a child drop a
 * tail (e.g. in-place feedback replaces the last user message) without copying the rest.
 */
export interface ConversationDelta {
  keep?: number;
  add: Message[];
}

export const ConversationDeltaSchema = z.object({
  keep: z.number().int().nonnegative().optional(),
  add: z.array(MessageSchema),
});

/**
 * The conversation of node `id`: the deltas from the root down, applied in order.
 * Returns a NEW array (safe to push to); the message objects themselves are shared with the
 * tree and must not be mutated.
 *
 * @example
 * const conv = materialize(tree, active.id);
 * conv.push(userMessage('Try again')); // the tree is unaffected
 */
export function materialize(tree: SampleTree<ConversationDelta>, id: number): Message[] {
  const conv: Message[] = [];
  for (const node of tree.pathFromRoot(id)) {
    conv.length = keptCount(node.id, node.data, conv.length);
    for (const m of node.data.add) conv.push(m);
  }
  return conv;
}

/**
 * The length `materialize(tree, id)` would have, without building it.
 *
 * @example
 * conversationLength(tree, id); // 4
 */
export function conversationLength(tree: SampleTree<ConversationDelta>, id: number): number {
  let length = 0;
  for (const node of tree.pathFromRoot(id)) length = deltaLength(node.id, node.data, length);
  return length;
}

/**
 * Length of a node's conversation from its parent's length and its delta (validating `keep`).
 * Lets callers that walk the tree top-down compute every length in one pass.
 *
 * @example
 * deltaLength(node.id, node.data, parentLength);
 */
export function deltaLength(id: number, delta: ConversationDelta, parentLength: number): number {
  return keptCount(id, delta, parentLength) + delta.add.length;
}

function keptCount(id: number, delta: ConversationDelta, parentLength: number): number {
  const keep = delta.keep ?? parentLength;
  if (!Number.isInteger(keep) || keep < 0 || keep > parentLength) {
    throw new InvalidArgumentError(
      `node ${id}: keep must be an integer in [0, ${parentLength}] (the parent's conversation length), got ${String(keep)}`,
    );
  }
  return keep;
}

/**
 * The delta that turns `parentConv` into `childConv`: keep their longest common prefix
 * (compared by deep equality), add the rest. `keep` is omitted when the whole parent stays.
 *
 * @example
 * deltaBetween([u, a], [u, a, u2]);   // { add: [u2] }
 * deltaBetween([u, a], [u2]);         // { keep: 0, add: [u2] }
 */
export function deltaBetween(parentConv: Message[], childConv: Message[]): ConversationDelta {
  const max = Math.min(parentConv.length, childConv.length);
  let prefix = 0;
  while (prefix < max && deepEqual(parentConv[prefix], childConv[prefix])) prefix++;
  const add = childConv.slice(prefix);
  return prefix === parentConv.length ? { add } : { keep: prefix, add };
}
