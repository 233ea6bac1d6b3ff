import {
  InvalidArgumentError,
  type Ordering,
  restoreRandom,
  SampleTree,
  type Scoring,
  seededRandom,
  selectBest,
  selectDescending,
  thompsonSampling,
  uct,
  valueUct,
} from '../../../core';
import { colorGameTree } from './fixtures';

function small() {
  const t = SampleTree.create('root');
  const c1 = t.expand(0, 'c1');
  const c2 = t.expand(0, 'c2');
  const c11 = t.expand(c1.id, 'c11');
  return { t, c1, c2, c11 };
}

describe('selectBest (vector 7)', () => {
  it('breaks ties by traversal order: preorder -> root, postorder -> first leaf', () => {
    const { t, c11 } = small();
    expect(selectBest(t, uct(), { ordering: 'preorder' }).id).toBe(0);
    expect(selectBest(t, uct(), { ordering: 'postorder' }).id).toBe(c11.id);
    expect(selectBest(t, uct()).id).toBe(c11.id); // postorder is the default
  });

  it('rejects an invalid ordering, naming it', () => {
    const { t } = small();
    expect(() => selectBest(t, uct(), { ordering: 'inorder' as Ordering })).toThrow(InvalidArgumentError);
    expect(() => selectBest(t, uct(), { ordering: 'inorder' as Ordering })).toThrow('invalid ordering "inorder"');
  });

  it('rejects an invalid scoring, naming it', () => {
    const { t } = small();
    expect(() => selectBest(t, { kind: 'best' } as unknown as Scoring)).toThrow('unknown scoring {"kind":"best"}');
  });

  it('Thompson never picks a 0/10 node over a 10/10 sibling', () => {
    const t = SampleTree.create('root');
    const good = t.expand(0, 'good');
    const bad = t.expand(0, 'bad');
    t.backpropagate(good.id, { wins: 10, visits: 10 });
    t.backpropagate(bad.id, { wins: 0, visits: 10 });
    const rng = seededRandom(7);
    for (let i = 0; i < 200; i++) expect(selectBest(t, thompsonSampling(), { rng }).id).not.toBe(bad.id);
  });

  it('scores every node, whatever its success, and picks the best UCT score in the color game', () => {
    const t = colorGameTree();
    t.setSuccess(5, false);
    // leaves 5 and 6 (1/1 under 4 visits) share the top UCT score 2.67; postorder reaches 5 first
    expect(selectBest(t, uct()).id).toBe(5);
    expect(selectBest(t, uct(), { ordering: 'preorder' }).id).toBe(5);
    // within a subtree
    expect(selectBest(t, uct(), { fromId: 2 }).id).toBe(7);
  });

  it('uses strict > (a later equal score does not win)', () => {
    const t = SampleTree.create('r');
    const a = t.expand(0, 'a');
    const b = t.expand(0, 'b');
    t.backpropagate(a.id, { wins: 1, visits: 2 });
    t.backpropagate(b.id, { wins: 1, visits: 2 });
    expect(selectBest(t, uct(), { ordering: 'preorder', fromId: 0 }).id).toBe(a.id);
  });
});

describe('selectDescending', () => {
  it('walks down taking the best-scoring child at each level', () => {
    const t = colorGameTree();
    const path: number[] = [];
    const leaf = selectDescending(t, {
      score: (n) => {
        path.push(n.id);
        return n.wins / Math.max(n.visits, 1);
      },
    });
    // root: c1 5/8 beats c2 1/4; c1: c11 3/4 beats c12 1/2; c11: 5 and 6 tie -> first child
    expect(leaf.id).toBe(5);
    expect(path).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('skips ineligible children and stops where none is eligible', () => {
    const t = colorGameTree();
    const leaf = selectDescending(t, {
      score: (n) => n.wins / Math.max(n.visits, 1),
      eligible: (n) => n.id !== 1 && n.id !== 7 && n.id !== 8,
    });
    expect(leaf.id).toBe(2);
  });

  it('returns the start node when it has no children; honours fromId', () => {
    const t = colorGameTree();
    expect(selectDescending(t, { score: () => 0, fromId: 4 }).id).toBe(4);
    expect(selectDescending(t, { score: (n) => -n.id, fromId: 2 }).id).toBe(7);
    expect(selectDescending(SampleTree.create('x'), { score: () => 1 }).id).toBe(0);
  });

  it('works with valueUct, trying an unvisited child with a good own score', () => {
    const t = SampleTree.create('r');
    const a = t.expand(0, 'a');
    const b = t.expand(0, 'b');
    t.backpropagate(a.id, { value: 0.2 });
    t.setScore(b.id, 0.9);
    expect(selectDescending(t, { score: (n) => valueUct(t, n.id, 0) }).id).toBe(b.id);
  });
});

describe('determinism', () => {
  /** A miniature airetry-like search: select with Thompson, expand, judge by a random draw. */
  function search(rng: ReturnType<typeof seededRandom>, tree: SampleTree<number>, steps: number, from = 0): number[] {
    const picks: number[] = [];
    for (let i = from; i < from + steps; i++) {
      const s = selectBest(tree, thompsonSampling(), { rng });
      picks.push(s.id);
      const child = tree.expand(s.id, i);
      const passed = rng.random() < 0.3;
      tree.setSuccess(child.id, passed);
      tree.backpropagate(child.id, { wins: passed ? 1 : 0, visits: 1, value: rng.random() });
    }
    return picks;
  }

  it('the same seed gives the same selections and the same tree', () => {
    const run = (seed: number) => {
      const tree = SampleTree.create(-1);
      const picks = search(seededRandom(seed), tree, 150);
      return { picks, json: JSON.stringify(tree.toJSON()) };
    };
    const a = run(12345);
    const b = run(12345);
    expect(a.picks).toEqual(b.picks);
    expect(a.json).toBe(b.json);
    expect(run(54321).picks).not.toEqual(a.picks);
  });

  it('survives a continue-as-new: saved tree + random state continue exactly', () => {
    const straightTree = SampleTree.create(-1);
    const straightRng = seededRandom(99);
    const straight = search(straightRng, straightTree, 120);

    const tree1 = SampleTree.create(-1);
    const rng1 = seededRandom(99);
    const first = search(rng1, tree1, 60);
    const carried = JSON.parse(JSON.stringify({ tree: tree1.toJSON(), rng: rng1.state() })) as {
      tree: unknown;
      rng: number[];
    };
    const tree2 = SampleTree.fromJSON<number>(carried.tree);
    const second = search(restoreRandom(carried.rng), tree2, 60, 60);

    expect([...first, ...second]).toEqual(straight);
    expect(tree2.toJSON()).toEqual(straightTree.toJSON());
  });
});
