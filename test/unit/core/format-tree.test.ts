import {
  type ConversationDelta,
  formatNode,
  formatSamples,
  formatTree,
  roundDigits,
  SampleTree,
  seededRandom,
  thompsonSampling,
  uct,
} from '../../../core';
import { colorGameTree, messages } from './fixtures';

describe('formatNode (vector 1 show)', () => {
  it('prints id, stats and optional score and length', () => {
    const t = SampleTree.create<string[]>([]);
    const c1 = t.expand(0, []);
    expect(formatNode(c1, { length: c1.data.length })).toBe('SampleNode(id: 1, stats: 0/0, length: 0)');
    expect(formatNode(c1)).toBe('SampleNode(id: 1, stats: 0/0)');
    t.backpropagate(c1.id, { wins: 1, visits: 2 });
    expect(formatNode(t.node(1), { score: 1.9432, length: 5 })).toBe('SampleNode(id: 1, stats: 1/2, score: 1.94, length: 5)');
  });
});

describe('roundDigits', () => {
  it('rounds like Julia round(x, digits=2): to nearest, ties to even', () => {
    expect(roundDigits(1.41421356)).toBe(1.41);
    expect(roundDigits(2.665)).toBe(2.66); // 2.665 * 100 === 266.5 in floating point: a tie, to even (Math.round gives 2.67)
    expect(roundDigits(0.125)).toBe(0.12); // exact tie -> even
    expect(roundDigits(0.375)).toBe(0.38);
    expect(roundDigits(-0.125)).toBe(-0.12);
    expect(roundDigits(0.5)).toBe(0.5);
    expect(String(roundDigits(2))).toBe('2'); // Julia prints 2.0; we print JavaScript's "2"
  });
});

describe('formatTree', () => {
  it("reproduces the seeds' color-game print_samples tree", () => {
    expect(formatSamples(colorGameTree())).toBe(
      [
        'SampleNode(id: 0, stats: 6/12, score: 0.5, length: 2)',
        '├─ SampleNode(id: 1, stats: 5/8, score: 1.41, length: 4)',
        '│  ├─ SampleNode(id: 3, stats: 3/4, score: 1.77, length: 6)',
        '│  │  ├─ SampleNode(id: 5, stats: 1/1, score: 2.67, length: 7)',
        '│  │  └─ SampleNode(id: 6, stats: 1/1, score: 2.67, length: 7)',
        '│  └─ SampleNode(id: 4, stats: 1/2, score: 1.94, length: 5)',
        '└─ SampleNode(id: 2, stats: 1/4, score: 1.36, length: 4)',
        '   ├─ SampleNode(id: 7, stats: 0/1, score: 1.67, length: 5)',
        '   └─ SampleNode(id: 8, stats: 0/1, score: 1.67, length: 5)',
      ].join('\n'),
    );
  });

  it('omits scores with scoring null and lengths by default', () => {
    const lines = formatTree(colorGameTree(), { scoring: null }).split('\n');
    expect(lines[0]).toBe('SampleNode(id: 0, stats: 6/12)');
    expect(lines[8]).toBe('   └─ SampleNode(id: 8, stats: 0/1)');
  });

  it('omits length where the callback returns undefined, and appends labels', () => {
    const text = formatTree(colorGameTree(), {
      scoring: uct(2),
      length: (n) => (n.id === 0 ? 2 : undefined),
      label: (n) => (n.id === 5 ? '"yellow"' : ''),
      fromId: 3,
    });
    expect(text).toBe(
      [
        'SampleNode(id: 3, stats: 3/4, score: 2.19)',
        '├─ SampleNode(id: 5, stats: 1/1, score: 3.35) "yellow"',
        '└─ SampleNode(id: 6, stats: 1/1, score: 3.35)',
      ].join('\n'),
    );
  });

  it('prints Thompson draws with an rng, reproducibly', () => {
    const a = formatTree(colorGameTree(), { scoring: thompsonSampling(), rng: seededRandom(4) });
    const b = formatTree(colorGameTree(), { scoring: thompsonSampling(), rng: seededRandom(4) });
    expect(a).toBe(b);
    expect(a.split('\n')).toHaveLength(9);
    expect(a).toMatch(/^SampleNode\(id: 0, stats: 6\/12, score: (0|1|0\.\d{1,2})\)$/m);
    expect(() => formatTree(colorGameTree(), { scoring: thompsonSampling() })).toThrow(/needs a random source/);
  });

  it('elides nodes below maxDepth', () => {
    expect(formatTree(colorGameTree(), { scoring: null, maxDepth: 1 })).toBe(
      [
        'SampleNode(id: 0, stats: 6/12)',
        '├─ SampleNode(id: 1, stats: 5/8)',
        '│  ⋮',
        '└─ SampleNode(id: 2, stats: 1/4)',
        '   ⋮',
      ].join('\n'),
    );
  });

  it('formatSamples counts lengths through keep, from a subtree too', () => {
    const t = SampleTree.create<ConversationDelta>({ add: messages(3) });
    const a = t.expand(0, { keep: 1, add: messages(1) });
    t.expand(a.id, { add: messages(2) });
    expect(formatSamples(t, { scoring: null })).toBe(
      ['SampleNode(id: 0, stats: 0/0, length: 3)', '└─ SampleNode(id: 1, stats: 0/0, length: 2)', '   └─ SampleNode(id: 2, stats: 0/0, length: 4)'].join('\n'),
    );
    expect(formatSamples(t, { scoring: null, fromId: 2 })).toBe('SampleNode(id: 2, stats: 0/0, length: 4)');
    t.expand(a.id, { keep: 9, add: [] });
    expect(() => formatSamples(t)).toThrow('node 3: keep must be an integer in [0, 2]');
  });

  it('prints a single node without connectors', () => {
    expect(formatTree(SampleTree.create('x'))).toBe('SampleNode(id: 0, stats: 0/0, score: 0)');
  });
});
