import {
  assistantMessage,
  type ConversationDelta,
  conversationLength,
  deepEqual,
  deltaBetween,
  InvalidArgumentError,
  materialize,
  type Message,
  removeUsedVariables,
  renderTemplate,
  SampleTree,
  splitMultiSamples,
  systemMessage,
  templateVariables,
  truncateConversation,
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

describe('truncateConversation', () => {
  const msg = (n: number, tag: string) => userMessage(tag + 'x'.repeat(n - tag.length));

  it('returns the same object when it fits', () => {
    const conv = [msg(10, 'a'), msg(10, 'b'), msg(10, 'c')];
    expect(truncateConversation(conv, 30)).toBe(conv);
  });

  it('returns the same object when there are at most 2 messages, even if too long', () => {
    const conv = [msg(100, 'a'), msg(100, 'b')];
    expect(truncateConversation(conv, 10)).toBe(conv);
  });

  it('keeps the last 2, then fills from the start greedily, skipping what does not fit', () => {
    const [a, b, c, d, e, f] = [msg(10, 'a'), msg(50, 'b'), msg(15, 'c'), msg(30, 'd'), msg(20, 'e'), msg(20, 'f')];
    // budget 70: e+f = 40, a fits (50), b does not (100), c fits (65), d does not (95)
    expect(truncateConversation([a, b, c, d, e, f], 70)).toEqual([a, c, e, f]);
  });

  it('keeps only the last 2 when they alone exceed the budget', () => {
    const conv = [msg(5, 'a'), msg(50, 'b'), msg(50, 'c')];
    expect(truncateConversation(conv, 60)).toEqual([conv[1], conv[2]]);
  });

  it('counts characters of the text content (code points; tool calls and null content are 0)', () => {
    const emoji = userMessage('😀😀😀'); // 3 code points, 6 UTF-16 units
    const toolCall = assistantMessage(null, { tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: 'x'.repeat(99) } }] });
    const parts = userMessage([{ type: 'text', text: 'abc' }, { type: 'image_url', image_url: { url: 'http://x' } }]);
    const conv = [emoji, toolCall, parts, userMessage('de')];
    expect(truncateConversation(conv, 8)).toBe(conv); // 3 + 0 + 3 + 2
    expect(truncateConversation(conv, 7)).toEqual([toolCall, parts, conv[3]]);
  });

  it('defaults to 32,000 characters', () => {
    const conv = [msg(20_000, 'a'), msg(10_000, 'b'), msg(10_000, 'c'), msg(1_000, 'd')];
    expect(truncateConversation(conv)).toEqual([conv[0], conv[2], conv[3]]);
  });
});

describe('splitMultiSamples (vector 22)', () => {
  const s1 = systemMessage('S1');
  const s2 = userMessage('S2');

  it('splits samples of one call into one conversation each', () => {
    const a1 = assistantMessage('A1', { runId: 'r1', sampleId: 1 });
    const a2 = assistantMessage('A2', { runId: 'r1', sampleId: 2 });
    expect(splitMultiSamples([s1, s2, a1, a2])).toEqual([
      [s1, s2, a1],
      [s1, s2, a2],
    ]);
  });

  it('keeps assistant messages of other runs in the shared past', () => {
    const old = assistantMessage('old', { runId: 'r0', sampleId: 0 });
    const a1 = assistantMessage('A1', { runId: 'r1', sampleId: 0 });
    const a2 = assistantMessage('A2', { runId: 'r1', sampleId: 1 });
    const u = userMessage('again');
    expect(splitMultiSamples([s2, old, u, a1, a2])).toEqual([
      [s2, old, u, a1],
      [s2, old, u, a2],
    ]);
  });

  it('returns [conv] without a sample id, when the last is not an assistant message, or for short conversations', () => {
    const plain = [userMessage('U'), assistantMessage('A')];
    expect(splitMultiSamples(plain)).toEqual([plain]);
    const one = [userMessage('U'), assistantMessage('A', { runId: 'r', sampleId: 1 })];
    expect(splitMultiSamples(one)).toEqual([one]);
    const notLast = [assistantMessage('A', { runId: 'r', sampleId: 1 }), userMessage('U')];
    expect(splitMultiSamples(notLast)).toEqual([notLast]);
    expect(splitMultiSamples([])).toEqual([[]]);
    const single = [assistantMessage('A', { runId: 'r', sampleId: 0 })];
    expect(splitMultiSamples(single)).toEqual([single]);
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

  it('lists variables once, in order of first use', () => {
    expect(templateVariables('{{a}} and {{b}} and {{a}} {{ c }}')).toEqual(['a', 'b', 'c']);
    expect(templateVariables('no vars {x} {{}}')).toEqual([]);
  });
});

describe('removeUsedVariables (vector 21)', () => {
  it('drops variables used in any message', () => {
    expect(removeUsedVariables({ a: 1, b: 2 }, [userMessage('{{a}} {{b}}')])).toEqual({});
    expect(removeUsedVariables({ a: 1, b: 2, c: 3 }, [userMessage('{{a}} {{d}}'), systemMessage('{{b}}')])).toEqual({ c: 3 });
  });

  it('leaves everything for an empty conversation and never mutates the input', () => {
    const vars = { a: 1, b: 2 };
    expect(removeUsedVariables(vars, [])).toEqual({ a: 1, b: 2 });
    removeUsedVariables(vars, [userMessage('{{a}}')]);
    expect(vars).toEqual({ a: 1, b: 2 });
  });
});
