import {
  assistantMessage,
  type ConversationDelta,
  type Message,
  type RandomSource,
  SampleTree,
  userMessage,
} from '../../../core';

/** `n` alternating user/assistant messages, tagged so they are all distinct. */
export function messages(n: number, tag = 'm'): Message[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? userMessage(`${tag}-u${i}`) : assistantMessage(`${tag}-a${i}`)));
}

/**
 * The color-guessing game tree printed by `print_samples` in seeds/001, rebuilt by hand:
 * same shape, same stats, same conversation lengths; ids are ours (0..8 in creation order).
 */
export function colorGameTree(): SampleTree<ConversationDelta> {
  const t = SampleTree.create<ConversationDelta>({ add: messages(2, 'root') });
  const c1 = t.expand(0, { add: messages(2, 'c1') }); // length 4
  const c2 = t.expand(0, { add: messages(2, 'c2') }); // length 4
  const c11 = t.expand(c1.id, { add: messages(2, 'c11') }); // 6
  const c12 = t.expand(c1.id, { add: messages(1, 'c12') }); // 5
  const c111 = t.expand(c11.id, { add: messages(1, 'c111') }); // 7
  const c112 = t.expand(c11.id, { add: messages(1, 'c112') }); // 7
  const c21 = t.expand(c2.id, { add: messages(1, 'c21') }); // 5
  const c22 = t.expand(c2.id, { add: messages(1, 'c22') }); // 5
  t.backpropagate(c111.id, { wins: 1 });
  t.backpropagate(c112.id, { wins: 1 });
  t.backpropagate(c11.id, { wins: 1, visits: 2 }); // c11 3/4
  t.backpropagate(c12.id, { wins: 1, visits: 2 }); // c12 1/2
  t.backpropagate(c1.id, { wins: 1, visits: 2 }); // c1 5/8
  t.backpropagate(c21.id, { wins: 0 });
  t.backpropagate(c22.id, { wins: 0 });
  t.backpropagate(c2.id, { wins: 1, visits: 2 }); // c2 1/4, root 6/12
  return t;
}

export interface NodeData {
  step: number;
  text: string;
}

/**
 * A random tree of `size` nodes: each new node hangs under a random earlier node (biased to
 * recent ones, for some depth), with random stats, scores, feedback and success.
 */
export function randomTree(size: number, rng: RandomSource): SampleTree<NodeData> {
  const t = SampleTree.create<NodeData>({ step: 0, text: 'root' });
  for (let i = 1; i < size; i++) {
    const recent = rng.random() < 0.5;
    const span = recent ? Math.min(i, 20) : i;
    const parent = i - 1 - Math.floor(rng.random() * span);
    const r = rng.random();
    const node = t.expand(parent, { step: i, text: `node ${i}` }, {
      success: r < 0.1 ? false : true,
      feedback: r < 0.3 ? `feedback ${i}` : '',
    });
    if (rng.random() < 0.7) {
      const x = rng.random();
      t.backpropagate(node.id, { wins: x < 0.4 ? 1 : 0, visits: 1, value: x });
    }
    if (rng.random() < 0.5) t.setScore(node.id, rng.random());
    if (rng.random() < 0.05) t.setSuccess(node.id, undefined);
  }
  return t;
}

/** A chain root → 1 → 2 → ... of `size` nodes. */
export function chain(size: number): SampleTree<ConversationDelta> {
  const t = SampleTree.create<ConversationDelta>({ add: [userMessage('start')] });
  let id = t.rootId;
  for (let i = 1; i < size; i++) id = t.expand(id, { add: [assistantMessage(`step ${i}`)] }).id;
  return t;
}
