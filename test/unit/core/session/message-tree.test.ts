import { assistantMessage, systemMessage, userMessage } from '../../../../core';
import { pathRef } from '../../../../core/hash/refs';
import { formatSessionTree } from '../../../../core/session/format-session';
import { SessionTree } from '../../../../core/session/message-tree';

/** langroid's one-agent vector: [sys, u1, a2, u3, aDone] (LLM 1→2, 3→Done). */
function langroidHistory() {
  const tree = SessionTree.create([systemMessage('You are a counter.')], 0);
  tree.append(userMessage('1'), { turn: 1, at: 1, by: 'user' });
  tree.append(assistantMessage('2'), { turn: 1, at: 2 });
  tree.append(userMessage('3'), { turn: 2, at: 3, by: 'user' });
  tree.append(assistantMessage('DONE 100'), { turn: 2, at: 4 });
  return tree;
}

describe('SessionTree', () => {
  it('keeps the live conversation as a chain of path records, one per message', () => {
    const tree = langroidHistory();
    expect(tree.conversation().map((m) => m.content)).toEqual(['You are a counter.', '1', '2', '3', 'DONE 100']);
    expect(tree.turn).toBe(2);
    const [first, second] = tree.liveNodes();
    expect(second.path).toBe(pathRef({ parent: first.path, add: [second.ref] }));
    expect(tree.refs.input(tree.headPath!).writes?.messages).toBeDefined();
  });

  it('counts assistant messages 1-based from the start, or back from -1, and explains every refusal', () => {
    const tree = langroidHistory();
    expect(tree.resolveTarget({ n: 1 })).toEqual({ ok: true, targetId: 2, n: 1 });
    expect(tree.resolveTarget({ n: -1 })).toEqual({ ok: true, targetId: 4, n: 2 });
    expect(tree.resolveTarget({ n: -2 })).toEqual({ ok: true, targetId: 2, n: 1 });
    expect(tree.resolveTarget({ n: 3 })).toEqual({ ok: false, reason: 'there are only 2 assistant messages (n must be 1 to 2, or -1 to -2 counting back from the latest)' });
    expect(tree.resolveTarget({ n: -3 })).toEqual({
      ok: false,
      reason: 'going back 3 assistant messages goes past the start of the conversation, which has 2 (n must be 1 to 2, or -1 to -2 counting back from the latest)',
    });
    expect(tree.resolveTarget({ n: 0 })).toMatchObject({ ok: false, reason: expect.stringContaining('n counts from 1') });
    expect(tree.resolveTarget({ messageId: 3 })).toEqual({
      ok: false,
      reason: 'message 3 is a user message: only assistant messages can be rewound (to change a user message, rewind the assistant message before it and send again)',
    });
    expect(tree.resolveTarget({ messageId: 9 })).toMatchObject({ ok: false, reason: 'there is no message 9 (the session has 5, ids 0 to 4)' });
    expect(tree.resolveTarget({ messageId: 4 })).toEqual({ ok: true, targetId: 4, n: 2 });
    expect(SessionTree.create([], 0).resolveTarget({ n: 1 })).toEqual({ ok: false, reason: 'there is no assistant message to rewind to yet' });
    // The message asking for a rewind (the model's tool call) is not a target itself.
    expect(tree.resolveTarget({ n: 2 }, { before: 4 })).toMatchObject({ ok: false, reason: expect.stringContaining('only 1 assistant message') });
  });

  it('rewinds like langroid (replace the nth assistant message, drop what followed) but keeps the pruned messages as an abandoned branch', () => {
    const tree = langroidHistory();
    const prefixPath = tree.node(1).path;
    const { record, replacement } = tree.rewind({ n: 1 }, '20', { at: 5, by: 'ana', source: 'update' });
    expect(tree.conversation().map((m) => m.content)).toEqual(['You are a counter.', '1', '20']);
    expect(record).toEqual({ seq: 1, at: 5, by: 'ana', source: 'update', n: 1, targetId: 2, replacementId: 5, abandoned: 3 });
    expect(replacement).toMatchObject({ id: 5, parentId: 1, role: 'assistant', turn: 1, kind: 'replacement', rewind: 1, by: 'ana', abandoned: false });
    expect(tree.turn).toBe(1);
    // The kept prefix is the same path: nothing before the replaced message is sent or paid again.
    expect(tree.node(replacement.id).path).toBe(pathRef({ parent: prefixPath, add: [replacement.ref] }));
    const view = tree.view();
    expect(view.nodes.filter((n) => n.abandoned).map((n) => [n.id, n.abandonedBy])).toEqual([[2, 1], [3, 1], [4, 1]]);
    expect(view.head).toBe(5);
    // A second rewind cannot target the abandoned branch, and counts only live assistant messages.
    expect(tree.resolveTarget({ messageId: 4 })).toEqual({ ok: false, reason: 'message 4 is on an abandoned branch (rewind 1 pruned it): rewind a message of the live conversation' });
    tree.append(userMessage('30'), { turn: 2, at: 6 });
    tree.append(assistantMessage('40'), { turn: 2, at: 7 });
    const second = tree.rewind({ n: -1 }, '41', { at: 8, by: 'model', source: 'tool' });
    expect(second.record).toMatchObject({ seq: 2, n: 2, targetId: 7, abandoned: 1 });
    expect(tree.conversation().map((m) => m.content)).toEqual(['You are a counter.', '1', '20', '30', '41']);
  });

  it('rewinding to an early message abandons every branch that grew after it, once', () => {
    const tree = langroidHistory();
    tree.rewind({ n: 2 }, 'DONE 200', { at: 5, by: 'ana', source: 'update' });
    const { record } = tree.rewind({ n: 1 }, 'two', { at: 6, by: 'ana', source: 'update' });
    // n=1 prunes a2, u3 and the replacement 'DONE 200'; 'DONE 100' was already abandoned by rewind 1.
    expect(record.abandoned).toBe(3);
    expect(tree.view().nodes.find((n) => n.id === 4)).toMatchObject({ abandoned: true, abandonedBy: 1 });
    expect(() => tree.rewind({ n: 5 }, 'x', { at: 7, by: 'ana', source: 'update' })).toThrow('cannot rewind: there is only 1 assistant message');
  });

  it('hands over the live conversation only; the tree keeps every node', () => {
    const tree = langroidHistory();
    tree.rewind({ n: 1 }, '20', { at: 5, by: 'ana', source: 'update' });
    tree.refs.markStored(tree.refs.input(tree.headPath!));
    const json = JSON.parse(JSON.stringify(tree.handoverJSON()));
    const back = SessionTree.fromJSON(json);
    expect(back.conversation()).toEqual(tree.conversation());
    expect(back.view()).toEqual(tree.view());
    expect(json.refs.messages).toHaveLength(3);
    expect(back.message(4)).toBeUndefined();
    expect(back.refs.input(back.headPath!)).toEqual({ path: back.headPath });
    back.append(userMessage('30'), { turn: 2, at: 6 });
    expect(back.node(6).parentId).toBe(5);
  });

  it('prints the tree with the abandoned branch where it hangs off the conversation', () => {
    const tree = langroidHistory();
    tree.rewind({ n: 1 }, '20', { at: 5, by: 'ana', source: 'update' });
    tree.append(userMessage('30'), { turn: 2, at: 6, by: 'ana' });
    expect(formatSessionTree(tree.view())).toBe(
      [
        '#0 system t0: You are a counter.',
        '#1 user (user) t1: 1',
        '├─ #2 assistant t1: 2  [abandoned by rewind 1]',
        '│  #3 user (user) t2: 3  [abandoned by rewind 1]',
        '│  #4 assistant t2: DONE 100  [abandoned by rewind 1]',
        '└─ #5 assistant t1: 20  [replacement, rewind 1 by ana]',
        '   #6 user (ana) t2: 30  [head]',
      ].join('\n'),
    );
  });
});
