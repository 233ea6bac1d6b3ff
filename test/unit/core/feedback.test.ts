import {
  addFeedback,
  assistantMessage,
  collectAllFeedback,
  type ConversationDelta,
  FEEDBACK_TEMPLATE,
  materialize,
  NoUserMessageError,
  SampleTree,
  systemMessage,
  userMessage,
} from '../../../core';

/** root "Feedback 3" → c1 "Feedback 2" → c11 "Feedback 0"; c2 "" (vector 2). */
function feedbackTree() {
  const t = SampleTree.create('root');
  t.setFeedback(0, 'Feedback 3');
  const c1 = t.expand(0, 'c1', { feedback: 'Feedback 2' });
  const c2 = t.expand(0, 'c2');
  const c11 = t.expand(c1.id, 'c11', { feedback: 'Feedback 0' });
  return { t, c1, c2, c11 };
}

describe('collectAllFeedback (vector 2)', () => {
  it('joins non-empty feedback root first with 10 hyphens', () => {
    const { t, c11, c2 } = feedbackTree();
    expect(collectAllFeedback(t, c11.id)).toBe('Feedback 3\n----------\nFeedback 2\n----------\nFeedback 0');
    expect(collectAllFeedback(t, c11.id, ' | ')).toBe('Feedback 3 | Feedback 2 | Feedback 0');
    expect(collectAllFeedback(t, c2.id)).toBe('Feedback 3');
    expect(collectAllFeedback(SampleTree.create('x'), 0)).toBe('');
  });
});

describe('addFeedback', () => {
  function treeWith(feedback: string) {
    const t = SampleTree.create('root');
    const n = t.expand(0, 'n', { feedback });
    return { t, id: n.id };
  }

  it('appends a user message with the node feedback (vector 9)', () => {
    const { t, id } = treeWith('Test Feedback');
    const conv = [userMessage('Hello'), assistantMessage('Hi')];
    const out = addFeedback(conv, t, id);
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual(userMessage('### Feedback from Evaluator\nTest Feedback\n'));
    expect(conv).toHaveLength(2); // input untouched
  });

  it('returns a copy unchanged for empty or blank feedback, in both modes (vector 9)', () => {
    const conv = [userMessage('Hello'), assistantMessage('Hi')];
    for (const fb of ['', '  \n']) {
      const { t, id } = treeWith(fb);
      for (const inplace of [false, true]) {
        const out = addFeedback(conv, t, id, { inplace });
        expect(out).toEqual(conv);
        expect(out).not.toBe(conv);
      }
    }
  });

  it('non-inplace uses only the node own feedback, not the ancestors', () => {
    const t = SampleTree.create('root');
    const p = t.expand(0, 'p', { feedback: 'parent says' });
    const c = t.expand(p.id, 'c', { feedback: 'child says' });
    const out = addFeedback([userMessage('U')], t, c.id);
    expect(out[1]).toEqual(userMessage('### Feedback from Evaluator\nchild says\n'));
  });

  it('inplace replaces the tail with the extended last user message (vector 10)', () => {
    const { t, id } = treeWith('Inplace Feedback');
    const out = addFeedback([userMessage('Initial message'), assistantMessage('A')], t, id, { inplace: true });
    expect(out).toEqual([userMessage('Initial message\n\n### Feedback from Evaluator\nInplace Feedback\n')]);
  });

  it('inplace collects all feedback from the root (vector 11)', () => {
    const t = SampleTree.create('root');
    const p = t.expand(0, 'p', { feedback: 'Test Feedback' });
    const c = t.expand(p.id, 'c', { feedback: 'Extra test' });
    const conv = [systemMessage('S'), userMessage('User says hello'), assistantMessage('A1')];
    const out = addFeedback(conv, t, c.id, { inplace: true });
    expect(out).toEqual([
      systemMessage('S'),
      userMessage('User says hello\n\n### Feedback from Evaluator\nTest Feedback\n----------\nExtra test\n'),
    ]);
  });

  it('inplace drops everything after the last user message', () => {
    const { t, id } = treeWith('fb');
    const conv = [userMessage('first'), assistantMessage('a'), userMessage('second'), assistantMessage('b'), assistantMessage('c')];
    const out = addFeedback(conv, t, id, { inplace: true });
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual(userMessage('second\n\n### Feedback from Evaluator\nfb\n'));
  });

  it('inplace appends a text part to multi-part user content', () => {
    const { t, id } = treeWith('fb');
    const parts = userMessage([
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
    ]);
    const out = addFeedback([parts, assistantMessage('A')], t, id, { inplace: true });
    expect(out).toEqual([
      userMessage([
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
        { type: 'text', text: '\n\n### Feedback from Evaluator\nfb\n' },
      ]),
    ]);
    expect(parts.content).toHaveLength(2); // original message untouched
  });

  it('inplace without any user message throws a NoUserMessageError (not a string)', () => {
    const { t, id } = treeWith('fb');
    const call = () => addFeedback([systemMessage('S'), assistantMessage('A')], t, id, { inplace: true });
    expect(call).toThrow(NoUserMessageError);
    expect(call).toThrow(/needs a user message/);
    expect(() => addFeedback([], t, id, { inplace: true })).toThrow(NoUserMessageError);
  });

  it('uses a custom template', () => {
    const { t, id } = treeWith('too long');
    expect(addFeedback([], t, id, { template: 'Fix: {{feedback}}' })).toEqual([userMessage('Fix: too long')]);
  });

  it("never aliases or mutates the node's data (departure from the seeds)", () => {
    const u = userMessage('Guess a color');
    const a = assistantMessage('blue');
    const t = SampleTree.create<ConversationDelta>({ add: [u] });
    const n = t.expand(0, { add: [a] }, { feedback: 'Wrong, try warmer colors' });
    const before = JSON.stringify(t.toJSON());
    const conv = materialize(t, n.id);
    const out = addFeedback(conv, t, n.id);
    const outInplace = addFeedback(conv, t, n.id, { inplace: true });
    out.push(assistantMessage('mutating the result'));
    expect(JSON.stringify(t.toJSON())).toBe(before);
    expect(t.node(n.id).data.add).toEqual([a]);
    expect(conv).toEqual([u, a]);
    expect(outInplace[0]).not.toBe(u);
    expect(u).toEqual(userMessage('Guess a color'));
    // selecting the same node twice does not duplicate its feedback
    expect(addFeedback(materialize(t, n.id), t, n.id)).toHaveLength(3);
  });

  it('FEEDBACK_TEMPLATE is the seeds template', () => {
    expect(FEEDBACK_TEMPLATE).toBe('### Feedback from Evaluator\n{{feedback}}\n');
  });
});

test('feedback on a tool-call answer answers each call with a tool message (function-calling APIs require it)', () => {
  const { SampleTree } = require('../../../core/tree/sample-tree') as typeof import('../../../core/tree/sample-tree');
  const { addFeedback } = require('../../../core/feedback') as typeof import('../../../core/feedback');
  const tree = SampleTree.create<null>(null);
  tree.setFeedback(0, 'The keys should be "name".');
  const answer = {
    role: 'assistant' as const,
    content: null,
    tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'Food', arguments: '{"food":"apple"}' } }],
  };
  const out = addFeedback([{ role: 'user', content: 'Extract.' }, answer], tree, 0);
  expect(out[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '### Feedback from Evaluator\nThe keys should be "name".\n' });
  expect(out).toHaveLength(3);
});
