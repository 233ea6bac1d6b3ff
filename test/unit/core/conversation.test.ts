import {
  type ConversationDelta,
  conversationLength,
  deepEqual,
  deltaBetween,
  InvalidArgumentError,
  materialize,
  type Message,
  renderTemplate,
  SampleTree,
  userMessage,
} from '../../../core';
import { chain, messages } from './fixtures';

describe('materialize / conversationLength', () => {
  function tree() {
    const [u1, a1, u2, a2, u3] = messages(5);
    const t = SampleTree.create<ConversationDelta>({ add: [u1] });
    const n1 = t.expand(0, { add: [a1] });
    const n2 = t.expand(n1.id, { add: [u2, a2] });
    const n3 = t.expand(n2.id, { keep: 2, add: [u3] }); // drops u2, a2
    const n4 = t.expand(n1.id, { keep: 0, add: [u3] });
    return { t, u1, a1, u2, a2, u3, ids: [n1.id, n2.id, n3.id, n4.id] };
  }

  it('applies the deltas from the root down', () => {
    const { t, u1, a1, u2, a2, u3, ids } = tree();
    expect(materialize(t, 0)).toEqual([u1]);
    expect(materialize(t, ids[1])).toEqual([u1, a1, u2, a2]);
    expect(materialize(t, ids[2])).toEqual([u1, a1, u3]);
    expect(materialize(t, ids[3])).toEqual([u3]);
    expect(ids.map((id) => conversationLength(t, id))).toEqual([2, 4, 3, 1]);
  });

  it('returns a new array each time; pushing to it leaves the tree unchanged', () => {
    const { t, ids } = tree();
    const before = JSON.stringify(t.toJSON());
    const conv = materialize(t, ids[1]);
    conv.push(userMessage('extra'));
    conv.length = 0;
    expect(materialize(t, ids[1])).toHaveLength(4);
    expect(JSON.stringify(t.toJSON())).toBe(before);
    expect(materialize(t, 0)).not.toBe(t.root.data.add);
  });

  it('rejects a keep larger than the parent conversation, naming the node', () => {
    const t = SampleTree.create<ConversationDelta>({ add: messages(2) });
    const bad = t.expand(0, { keep: 3, add: [] });
    expect(() => materialize(t, bad.id)).toThrow(InvalidArgumentError);
    expect(() => conversationLength(t, bad.id)).toThrow('node 1: keep must be an integer in [0, 2]');
  });

  it('handles a 10,000-deep chain', () => {
    const t = chain(10_000);
    expect(materialize(t, 9_999)).toHaveLength(10_000);
    expect(conversationLength(t, 9_999)).toBe(10_000);
  });
});

describe('deltaBetween', () => {
  const [u1, a1, u2, a2] = messages(4);

  it('omits keep when the whole parent stays', () => {
    expect(deltaBetween([u1, a1], [u1, a1, u2])).toEqual({ add: [u2] });
    expect(deltaBetween([u1, a1], [u1, a1])).toEqual({ add: [] });
  });

  it('keeps the longest common prefix by deep equality (copies count as equal)', () => {
    const copy = JSON.parse(JSON.stringify([u1, a1])) as Message[];
    expect(deltaBetween([u1, a1, u2], [...copy, a2])).toEqual({ keep: 2, add: [a2] });
    expect(deltaBetween([u1, a1], [u2])).toEqual({ keep: 0, add: [u2] });
    expect(deltaBetween([], [u1])).toEqual({ add: [u1] });
  });

  it('round-trips through a tree: materialize(child) equals the child conversation', () => {
    const parentConv = [u1, a1, u2];
    const childConv = [u1, a1, userMessage('u2 + feedback')];
    const t = SampleTree.create<ConversationDelta>({ add: parentConv });
    const child = t.expand(0, deltaBetween(parentConv, childConv));
    expect(materialize(t, child.id)).toEqual(childConv);
  });
});

describe('deepEqual', () => {
  it('ignores key order and undefined members, compares arrays in order', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(deepEqual({ a: null }, { a: undefined })).toBe(false);
    expect(deepEqual([], {})).toBe(false);
  });
});

describe('templates', () => {
  it('renders {{name}} placeholders, leaving unknown ones as written', () => {
    expect(renderTemplate('Hi {{name}}, {{ n }} new; {{missing}}', { name: 'Ada', n: 3 })).toBe('Hi Ada, 3 new; {{missing}}');
    expect(renderTemplate('{{o}} {{u}} {{b}}', { o: { a: 1 }, u: undefined, b: false })).toBe('{"a":1} {{u}} false');
  });

  it('does not expand placeholders inside substituted values', () => {
    expect(renderTemplate('{{a}}', { a: '{{b}}', b: 'no' })).toBe('{{b}}');
  });
});

