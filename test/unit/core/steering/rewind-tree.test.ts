import { InvalidArgumentError, InvalidTreeJsonError, SampleTree, selectBest, seededRandom, uct } from '../../../../core';
import { rewindTree } from '../../../../core/steering/rewind-tree';

/** root → {a, b}; a → {a1, a2}; a1 → a11. Stats from three rollouts: a11 won, a2 lost, b won. */
function tree() {
  const t = SampleTree.create<string>('prompt');
  const a = t.expand(0, 'a');
  const b = t.expand(0, 'b');
  const a1 = t.expand(a.id, 'a1');
  const a2 = t.expand(a.id, 'a2');
  const a11 = t.expand(a1.id, 'a11');
  t.backpropagate(a11.id, { wins: 1, value: 0.9 });
  t.backpropagate(a2.id, { wins: 0, value: 0.2 });
  t.backpropagate(b.id, { wins: 1, value: 0.7 });
  return { t, a: a.id, b: b.id, a1: a1.id, a2: a2.id, a11: a11.id };
}

describe('SampleTree.abandon', () => {
  it('takes the branch out of its parent children and its statistics out of every ancestor, keeping the nodes', () => {
    const { t, a, a1, a11 } = tree();
    expect(t.root.visits).toBe(3);
    const ids = t.abandon(a1);
    expect(ids).toEqual([a1, a11]);
    expect(t.childrenOf(a).map((n) => n.data)).toEqual(['a2']);
    expect([t.node(a).visits, t.node(a).wins, t.node(a).valueSum]).toEqual([1, 0, 0.2]);
    expect([t.root.visits, t.root.wins]).toEqual([2, 1]);
    expect(t.root.valueSum).toBeCloseTo(0.9);
    // The abandoned nodes are all still there, with their own statistics, for audit.
    expect(t.node(a11)).toMatchObject({ abandoned: true, visits: 1, wins: 1, parent: a1 });
    expect(t.node(a1).children).toEqual([a11]);
    expect(t.size).toBe(6);
    expect(t.preorder().map((n) => n.data)).toEqual(['prompt', 'a', 'a2', 'b']);
    expect(t.abandonedRoots()).toEqual([a1]);
  });

  it('refuses the root and a node already abandoned', () => {
    const { t, a1, a11 } = tree();
    expect(() => t.abandon(0)).toThrow(InvalidArgumentError);
    t.abandon(a1);
    expect(() => t.abandon(a11)).toThrow('node 5 is already abandoned');
  });

  it('survives JSON: the abandoned branch keeps its shape and stays out of its parent', () => {
    const { t, a, a1 } = tree();
    t.abandon(a1);
    const back = SampleTree.fromJSON<string>(JSON.parse(JSON.stringify(t.toJSON())));
    expect(back.toJSON()).toEqual(t.toJSON());
    expect(back.node(a).children).toEqual(t.node(a).children);
    expect(back.node(a1).children).toEqual([5]);
    expect(back.abandonedRoots()).toEqual([a1]);
    // A tree without abandoned nodes serialises exactly as before (no trailing flag).
    expect(tree().t.toJSON().nodes.every((tuple) => tuple.length <= 9)).toBe(true);
  });

  it('rejects JSON with a live node under an abandoned one', () => {
    const json = { v: 1, next: 3, nodes: [[0, null, 'r'], [1, 0, 'x', true, 0, 0, 0, null, '', true], [2, 1, 'y']] };
    expect(() => SampleTree.fromJSON(json)).toThrow(InvalidTreeJsonError);
    expect(() => SampleTree.fromJSON(json)).toThrow('node 2 is live under abandoned node 1');
  });
});

describe('rewindTree', () => {
  it('without a replacement: prunes what grew from the node and resumes from it, with feedback for its next expansion', () => {
    const { t, a, a1, a2, a11 } = tree();
    t.setFeedback(a, 'too long');
    const result = rewindTree(t, { nodeId: a, feedback: 'Answer in French.' });
    expect(result).toEqual({ tree: t, resumeFrom: a, abandoned: [a1, a11, a2] });
    expect(t.childrenOf(a)).toEqual([]);
    expect(t.node(a).feedback).toBe('too long\nAnswer in French.');
    expect([t.node(a).visits, t.node(a).wins, t.node(a).valueSum]).toEqual([0, 0, 0]);
  });

  it('with a replacement: the node and its subtree are abandoned and a sibling takes its place', () => {
    const { t, a, b, a1, a2, a11 } = tree();
    const result = rewindTree(t, { nodeId: a, replacement: 'a*', feedback: 'Check the units.' });
    expect(result.replacementId).toBe(6);
    expect(result.resumeFrom).toBe(6);
    expect(result.abandoned).toEqual([a, a1, a11, a2]);
    expect(t.root.children).toEqual([b, 6]);
    expect(t.node(6)).toMatchObject({ data: 'a*', parent: 0, feedback: 'Check the units.', abandoned: false, visits: 0 });
    expect([t.root.visits, t.root.wins]).toEqual([1, 1]);
  });

  it('never lets selection pick an abandoned node', () => {
    const { t, a } = tree();
    rewindTree(t, { nodeId: a, replacement: 'a*' });
    for (let i = 0; i < 20; i++) {
      const picked = selectBest(t, uct(), { rng: seededRandom(i) });
      expect(t.node(picked.id).abandoned).toBe(false);
    }
  });

  it('refuses to replace the root or to rewind an abandoned node', () => {
    const { t, a, a1 } = tree();
    expect(() => rewindTree(t, { nodeId: 0, replacement: 'x' })).toThrow('node 0 is the root (the prompt)');
    rewindTree(t, { nodeId: a });
    expect(() => rewindTree(t, { nodeId: a1 })).toThrow('node 3 is on an abandoned branch');
    expect(() => rewindTree(t, { nodeId: 99 })).toThrow('unknown node id 99');
  });
});

describe('what a rewind abandoned, in the tree texts', () => {
  it('a search tree prints abandoned branches after the live children, every line marked', async () => {
    const { formatSearchTree } = await import('../../../../core/agents/format-search-tree');
    const t = SampleTree.create<{ preview?: string }>({});
    const a = t.expand(0, { preview: 'multiply({"a":2,"b":3})' });
    const a1 = t.expand(a.id, { preview: '"six"' });
    const b = t.expand(0, { preview: 'multiply({"a":3,"b":2})' });
    rewindTree(t, { nodeId: a.id, replacement: { preview: 'multiply({"a":2,"b":3.5})' } });
    expect(formatSearchTree(t as never)).toBe(['n0 prompt', '├─ n3 d1 → multiply({"a":3,"b":2})', '└─ n4 d1 → multiply({"a":2,"b":3.5})'].join('\n'));
    expect(formatSearchTree(t as never, { abandoned: true })).toBe(
      [
        'n0 prompt',
        `├─ n${b.id} d1 → multiply({"a":3,"b":2})`,
        '├─ n4 d1 → multiply({"a":2,"b":3.5})',
        `└─ n${a.id} d1 → multiply({"a":2,"b":3}) [abandoned]`,
        `   └─ n${a1.id} d2 → "six" [abandoned]`,
      ].join('\n'),
    );
  });

  it('a sample tree prints abandoned samples unscored, with their conversation lengths', async () => {
    const { formatCallTree } = await import('../../../../core/airetry/format-call-tree');
    const u = (content: string) => ({ role: 'user' as const, content });
    const t = SampleTree.create<{ add: ReturnType<typeof u>[] }>({ add: [u('q')] });
    const s1 = t.expand(0, { add: [u('red')] });
    t.backpropagate(s1.id, { wins: 0 });
    t.expand(s1.id, { add: [u('try again'), u('blue')] });
    rewindTree(t, { nodeId: s1.id, replacement: { add: [u('yellow')] } });
    expect(formatCallTree(t as never, { abandoned: true, activeSampleId: 3, answers: true }).split('\n')).toEqual([
      'SampleNode(id: 0, stats: 0/0, score: 0, length: 1)',
      'SampleNode(id: 3, stats: 0/0, score: 0, length: 2) → "yellow" (active)',
      'SampleNode(id: 1, stats: 0/1, length: 2) → "red" [abandoned]',
      'SampleNode(id: 2, stats: 0/0, length: 4) → "blue" [abandoned]',
    ].map((line, i) => (i === 0 ? line : `${i === 1 ? '├─ ' : i === 2 ? '└─ ' : '   └─ '}${line}`)));
  });
});
