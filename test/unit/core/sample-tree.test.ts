import { InvalidArgumentError, InvalidTreeJsonError, SampleTree, UnknownNodeError, seededRandom } from '../../../core';
import { z } from 'zod';
import { chain, randomTree } from './fixtures';

/** root → {c1, c2}, c1 → c11, as in the seeds' tests. */
function small() {
  const t = SampleTree.create<string[]>([]);
  const c1 = t.expand(t.rootId, []);
  const c2 = t.expand(t.rootId, []);
  const c11 = t.expand(c1.id, []);
  return { t, root: t.root, c1, c2, c11 };
}

describe('SampleTree basics (vector 1)', () => {
  it('numbers ids sequentially from 0 and records depth, parent and child order', () => {
    const { t, root, c1, c2, c11 } = small();
    expect([root.id, c1.id, c2.id, c11.id]).toEqual([0, 1, 2, 3]);
    expect(t.size).toBe(4);
    expect(t.nextId).toBe(4);
    expect(root.children).toEqual([1, 2]);
    expect(c11.parent).toBe(c1.id);
    expect([root.depth, c1.depth, c11.depth]).toEqual([0, 1, 2]);
  });

  it('subtree sizes are 4/2/1', () => {
    const { t, c1, c11 } = small();
    expect([t.subtreeSize(0), t.subtreeSize(c1.id), t.subtreeSize(c11.id)]).toEqual([4, 2, 1]);
  });

  it('findNode(-1) is undefined and node(-1) throws a clear UnknownNodeError', () => {
    const { t } = small();
    expect(t.findNode(-1)).toBeUndefined();
    expect(t.has(3)).toBe(true);
    expect(() => t.node(-1)).toThrow(UnknownNodeError);
    expect(() => t.node(42)).toThrow('unknown node id 42 (tree has 4 nodes)');
    expect(() => t.expand(42, [])).toThrow(UnknownNodeError);
  });

  it('root success is undefined; expanded nodes default to success true and empty feedback', () => {
    const { root, c11, t } = small();
    expect(root.success).toBeUndefined();
    expect(c11.success).toBe(true);
    expect(c11.feedback).toBe('');
    const failed = t.expand(0, ['x'], { success: false, feedback: 'bad' });
    expect(failed.success).toBe(false);
    expect(failed.feedback).toBe('bad');
  });

  it('paths and relatives', () => {
    const { t, c1, c2, c11 } = small();
    expect(t.pathToRoot(c11.id).map((n) => n.id)).toEqual([3, 1, 0]);
    expect(t.pathFromRoot(c11.id).map((n) => n.id)).toEqual([0, 1, 3]);
    expect(t.parentOf(c11.id)?.id).toBe(c1.id);
    expect(t.parentOf(0)).toBeUndefined();
    expect(t.childrenOf(0).map((n) => n.id)).toEqual([c1.id, c2.id]);
  });

  it('preorder and postorder, from the root or a subtree', () => {
    const { t, c1 } = small();
    expect(t.preorder().map((n) => n.id)).toEqual([0, 1, 3, 2]);
    expect(t.postorder().map((n) => n.id)).toEqual([3, 1, 2, 0]);
    expect(t.preorder(c1.id).map((n) => n.id)).toEqual([1, 3]);
    expect(t.postorder(c1.id).map((n) => n.id)).toEqual([3, 1]);
  });

  it('setters change the node and validate', () => {
    const { t, c1 } = small();
    t.setScore(c1.id, 0.25);
    t.setFeedback(c1.id, 'fb');
    t.setSuccess(c1.id, false);
    t.setData(c1.id, ['new']);
    expect(t.node(c1.id)).toMatchObject({ score: 0.25, feedback: 'fb', success: false, data: ['new'] });
    t.setScore(c1.id, undefined);
    expect(t.node(c1.id).score).toBeUndefined();
    expect(() => t.setScore(c1.id, 1.5)).toThrow(InvalidArgumentError);
    expect(() => t.setScore(c1.id, NaN)).toThrow(/score must be a number in \[0, 1\]/);
  });
});

describe('backpropagate (vector 5)', () => {
  it('adds to the node and every ancestor', () => {
    const { t, root, c1, c2, c11 } = small();
    t.backpropagate(c1.id, { wins: 1, visits: 1 });
    t.backpropagate(c2.id, { wins: 0, visits: 1 });
    t.backpropagate(c11.id, { wins: 1, visits: 1 });
    const stats = (id: number) => [t.node(id).wins, t.node(id).visits];
    expect(stats(root.id)).toEqual([2, 3]);
    expect(stats(c1.id)).toEqual([2, 2]);
    expect(stats(c2.id)).toEqual([0, 1]);
    expect(stats(c11.id)).toEqual([1, 1]);
    t.backpropagate(root.id, { wins: 2, visits: 2 });
    expect(stats(root.id)).toEqual([4, 5]);
    t.backpropagate(c11.id, { wins: 2, visits: 2 });
    expect(stats(c11.id)).toEqual([3, 3]);
    expect(stats(root.id)).toEqual([6, 7]);
  });

  it('defaults to one visit, no win, no value; value accumulates into valueSum', () => {
    const { t, c11 } = small();
    t.backpropagate(c11.id);
    t.backpropagate(c11.id, { value: 0.5 });
    t.backpropagate(c11.id, { value: 1 });
    expect(t.node(c11.id)).toMatchObject({ wins: 0, visits: 3, valueSum: 1.5 });
    expect(t.root).toMatchObject({ wins: 0, visits: 3, valueSum: 1.5 });
  });

  it('rejects negative or non-finite amounts', () => {
    const { t } = small();
    expect(() => t.backpropagate(1, { visits: -1 })).toThrow(InvalidArgumentError);
    expect(() => t.backpropagate(1, { wins: Infinity })).toThrow(/wins must be a finite number >= 0/);
    expect(() => t.backpropagate(1, { value: NaN })).toThrow(/value must be a finite number/);
    expect(t.root.visits).toBe(0);
  });
});

describe('mean', () => {
  it('is valueSum/visits, or the own score (or 0) when unvisited', () => {
    const { t, c1, c2 } = small();
    expect(t.mean(c1.id)).toBe(0);
    t.setScore(c1.id, 0.4);
    expect(t.mean(c1.id)).toBe(0.4);
    t.backpropagate(c2.id, { value: 0.2 });
    t.backpropagate(c2.id, { value: 0.6 });
    expect(t.mean(c2.id)).toBeCloseTo(0.4, 12);
  });
});

describe('JSON round trip', () => {
  function roundTrip<D>(t: SampleTree<D>): SampleTree<D> {
    return SampleTree.fromJSON<D>(JSON.parse(JSON.stringify(t.toJSON())));
  }

  it('is exact for a random 10,000-node tree', () => {
    const t = randomTree(10_000, seededRandom(11));
    const r = roundTrip(t);
    expect(r.toJSON()).toEqual(t.toJSON());
    expect(r.size).toBe(10_000);
    expect(r.preorder().map((n) => n.id)).toEqual(t.preorder().map((n) => n.id));
    expect(r.postorder().map((n) => n.id)).toEqual(t.postorder().map((n) => n.id));
    const stats = (x: SampleTree<unknown>) =>
      x.preorder().map((n) => [n.wins, n.visits, n.valueSum, n.score, n.success, n.feedback, n.depth]);
    expect(stats(r)).toEqual(stats(t));
    expect(r).toStrictEqual(t);
    // the tree keeps going with the same ids
    expect(r.expand(5, { step: -1, text: 'x' }).id).toBe(t.expand(5, { step: -1, text: 'x' }).id);
  });

  it('is exact for a 10,000-deep chain (no recursion anywhere)', () => {
    const t = chain(10_000);
    const r = roundTrip(t);
    expect(r).toStrictEqual(t);
    expect(r.preorder()).toHaveLength(10_000);
    expect(r.postorder()[0].id).toBe(9_999);
    expect(r.node(9_999).depth).toBe(9_999);
    expect(r.pathToRoot(9_999)).toHaveLength(10_000);
    expect(r.subtreeSize(0)).toBe(10_000);
    r.backpropagate(9_999, { wins: 1 });
    expect(r.root.wins).toBe(1);
  });

  it('is compact: fresh nodes carry only id, parent and data; defaults are omitted', () => {
    const t = SampleTree.create('r');
    const a = t.expand(0, 'a');
    const b = t.expand(a.id, 'b', { success: false });
    t.backpropagate(b.id, { wins: 0, visits: 1 });
    const c = t.expand(0, 'c', { feedback: 'fix it' });
    t.setScore(c.id, 0.5);
    expect(t.toJSON()).toEqual({
      v: 1,
      next: 4,
      nodes: [
        [0, null, 'r', null, 0, 1],
        [1, 0, 'a', true, 0, 1],
        [2, 1, 'b', false, 0, 1],
        [3, 0, 'c', true, 0, 0, 0, 0.5, 'fix it'],
      ],
    });
  });

  it('keeps child order and the next id', () => {
    const t = SampleTree.create(0);
    const a = t.expand(0, 1);
    t.expand(0, 2);
    t.expand(a.id, 3);
    t.expand(0, 4);
    const r = roundTrip(t);
    expect(r.root.children).toEqual([1, 2, 4]);
    expect(r.nextId).toBe(5);
  });

  it('validates data with an optional zod schema', () => {
    const t = SampleTree.create({ n: 1 });
    t.expand(0, { n: 2 });
    const schema = z.object({ n: z.number() });
    expect(SampleTree.fromJSON(t.toJSON(), { data: schema }).node(1).data).toEqual({ n: 2 });
    const bad = { v: 1, next: 2, nodes: [[0, null, { n: 1 }], [1, 0, { n: 'two' }]] };
    expect(() => SampleTree.fromJSON(bad, { data: schema })).toThrow(
      'invalid input: tree.nodes[1].data.n: Invalid input: expected number, received string',
    );
  });

  it.each([
    ['not an object', 'nope', /invalid input: tree: /],
    ['a wrong version', { v: 2, next: 1, nodes: [[0, null, 'r']] }, /tree\.v: /],
    ['no nodes', { v: 1, next: 1, nodes: [] }, /tree\.nodes: Too small/],
    ['an unknown key', { v: 1, next: 1, nodes: [[0, null, 'r']], extra: 1 }, /Unrecognized key: "extra"/],
    ['negative visits', { v: 1, next: 1, nodes: [[0, null, 'r', null, 0, -1]] }, /tree\.nodes\[0\]\[5\]: Too small/],
    ['a score above 1', { v: 1, next: 1, nodes: [[0, null, 'r', null, 0, 0, 0, 2]] }, /tree\.nodes\[0\]\[7\]: Too big/],
    ['a non-root first node', { v: 1, next: 2, nodes: [[1, 0, 'r']] }, /tree\.nodes\[0\]: the first node must be the root/],
    ['two roots', { v: 1, next: 2, nodes: [[0, null, 'r'], [1, null, 'x']] }, /only the first node may be a root/],
    ['ids out of order', { v: 1, next: 3, nodes: [[0, null, 'r'], [2, 0, 'x'], [1, 0, 'y']] }, /ids must be strictly increasing/],
    ['an unknown parent', { v: 1, next: 3, nodes: [[0, null, 'r'], [2, 1, 'x']] }, /parent 1 of node 2 is not an earlier node/],
    ['next too small', { v: 1, next: 1, nodes: [[0, null, 'r'], [1, 0, 'x']] }, /tree\.next: must be greater than every id/],
  ])('rejects %s with a clear InvalidTreeJsonError', (_label, json, message) => {
    expect(() => SampleTree.fromJSON(json)).toThrow(message);
    expect(() => SampleTree.fromJSON(json)).toThrow(InvalidTreeJsonError);
  });
});
