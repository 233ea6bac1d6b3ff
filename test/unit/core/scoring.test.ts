import {
  betaSample,
  gammaSample,
  InvalidArgumentError,
  SampleTree,
  scoreNode,
  ScoringSchema,
  type Scoring,
  seededRandom,
  thompsonSampling,
  uct,
  valueUct,
} from '../../../core';

function withStats(parent: [number, number] | null, node: [number, number]) {
  const t = SampleTree.create('root');
  let id = t.rootId;
  if (parent) {
    const [pw, pv] = parent;
    id = t.expand(0, 'child').id;
    t.backpropagate(0, { wins: pw - node[0], visits: pv - node[1] });
  }
  t.backpropagate(id, { wins: node[0], visits: node[1] });
  return { t, id };
}

describe('UCT (vector 3)', () => {
  it('is wins/visits + c·√(ln(parent.visits)/visits)', () => {
    const { t, id } = withStats([15, 30], [10, 20]);
    expect(t.root).toMatchObject({ wins: 15, visits: 30 });
    expect(scoreNode(t, id, uct(2))).toBeCloseTo(0.5 + 2 * Math.sqrt(Math.log(30) / 20), 12);
    expect(scoreNode(t, id, uct(2))).toBeCloseTo(1.3247663, 6);
  });

  it('is wins/visits without a parent', () => {
    const { t, id } = withStats(null, [5, 10]);
    expect(scoreNode(t, id, uct(2))).toBe(0.5);
  });

  it('scores unvisited nodes 0 (not infinity)', () => {
    const t = SampleTree.create('r');
    const c = t.expand(0, 'c');
    t.backpropagate(0, { wins: 3, visits: 5 });
    expect(scoreNode(t, c.id, uct())).toBe(0);
  });

  it('gives no bonus under a parent with 0 or 1 visits', () => {
    const t = SampleTree.create('r');
    const c = t.expand(0, 'c');
    t.backpropagate(c.id, { wins: 1, visits: 1 });
    expect(scoreNode(t, c.id, uct())).toBe(1); // ln 1 = 0
  });

  it('defaults to exploration √2', () => {
    expect(uct()).toEqual({ kind: 'uct', exploration: Math.SQRT2 });
  });
});

describe('Thompson sampling (vector 4)', () => {
  it('draws in [0, 1]', () => {
    const { t, id } = withStats([15, 30], [10, 20]);
    const rng = seededRandom(1);
    for (let i = 0; i < 200; i++) {
      const x = scoreNode(t, id, thompsonSampling(), rng);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }
  });

  it('follows strong priors', () => {
    const { t, id } = withStats([15, 30], [10, 20]);
    const rng = seededRandom(2);
    for (let i = 0; i < 100; i++) {
      expect(scoreNode(t, id, thompsonSampling(1001, 1), rng)).toBeGreaterThanOrEqual(1001 / 1002 - 0.2);
      expect(scoreNode(t, id, thompsonSampling(1, 1001), rng)).toBeLessThanOrEqual(1 / 1002 + 0.2);
    }
  });

  it('draws afresh on every call', () => {
    const { t, id } = withStats(null, [3, 6]);
    const rng = seededRandom(3);
    const draws = new Set(Array.from({ length: 10 }, () => scoreNode(t, id, thompsonSampling(), rng)));
    expect(draws.size).toBe(10);
  });

  it('needs a random source (clear error)', () => {
    const { t, id } = withStats(null, [3, 6]);
    expect(() => scoreNode(t, id, thompsonSampling())).toThrow('Thompson sampling needs a random source (pass rng)');
  });

  it('rejects an unknown scorer, naming it', () => {
    const { t, id } = withStats(null, [3, 6]);
    const bogus = { kind: 'random' } as unknown as Scoring;
    expect(() => scoreNode(t, id, bogus)).toThrow(InvalidArgumentError);
    expect(() => scoreNode(t, id, bogus)).toThrow('unknown scoring {"kind":"random"}');
    expect(() => scoreNode(t, id, undefined as unknown as Scoring)).toThrow('unknown scoring undefined');
  });
});

describe('betaSample (vector 24)', () => {
  const cases: Array<[number, number]> = [
    [2, 3],
    [10, 10],
    [2.5, 3.5],
    [0.5, 5],
    [5, 0.5],
    [0.5, 0.5],
    [1, 1],
    [0.1, 0.1],
    [100, 100],
  ];

  it.each(cases)('Beta(%p, %p) has the right mean and variance over 1,000 draws', (a, b) => {
    const rng = seededRandom(2024);
    const xs = Array.from({ length: 1000 }, () => betaSample(a, b, rng));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
    expect(xs.every((x) => x >= 0 && x <= 1)).toBe(true);
    expect(Math.abs(mean - a / (a + b))).toBeLessThan(0.05);
    expect(Math.abs(variance - (a * b) / ((a + b) ** 2 * (a + b + 1)))).toBeLessThan(0.02);
  });

  it('rejects non-positive parameters', () => {
    expect(() => betaSample(0, 1, seededRandom(1))).toThrow('alpha must be a finite number > 0, got 0');
    expect(() => betaSample(1, -1, seededRandom(1))).toThrow(InvalidArgumentError);
  });
});

describe('gammaSample', () => {
  it.each([
    [0.3, 1],
    [1, 2],
    [4.5, 0.5],
  ])('Gamma(%p, %p) has mean αθ and variance αθ²', (alpha, theta) => {
    const rng = seededRandom(77);
    const n = 5000;
    const xs = Array.from({ length: n }, () => gammaSample(alpha, theta, rng));
    const mean = xs.reduce((s, x) => s + x, 0) / n;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
    expect(xs.every((x) => x > 0 && Number.isFinite(x))).toBe(true);
    expect(Math.abs(mean - alpha * theta) / (alpha * theta)).toBeLessThan(0.05);
    expect(Math.abs(variance - alpha * theta * theta) / (alpha * theta * theta)).toBeLessThan(0.12);
  });

  it('is reproducible from the seed', () => {
    const a = seededRandom(5);
    const b = seededRandom(5);
    expect(Array.from({ length: 20 }, () => gammaSample(0.7, 1, a))).toEqual(Array.from({ length: 20 }, () => gammaSample(0.7, 1, b)));
  });

  it('rejects bad parameters', () => {
    expect(() => gammaSample(NaN, 1, seededRandom(1))).toThrow(InvalidArgumentError);
    expect(() => gammaSample(1, 0, seededRandom(1))).toThrow('theta must be a finite number > 0, got 0');
  });
});

describe('valueUct', () => {
  it('scores an unvisited node by its own score, or 0', () => {
    const t = SampleTree.create('r');
    const c = t.expand(0, 'c');
    expect(valueUct(t, c.id)).toBe(0);
    t.setScore(c.id, 0.8);
    expect(valueUct(t, c.id)).toBe(0.8);
  });

  it('is mean + c·√(ln(parent.visits)/visits) once visited', () => {
    const t = SampleTree.create('r');
    const c = t.expand(0, 'c');
    const d = t.expand(0, 'd');
    t.backpropagate(c.id, { value: 0.9 });
    t.backpropagate(c.id, { value: 0.5 });
    t.backpropagate(d.id, { value: 0.1 });
    expect(valueUct(t, c.id)).toBeCloseTo(0.7 + Math.sqrt(Math.log(3) / 2), 12);
    expect(valueUct(t, c.id, 2)).toBeCloseTo(0.7 + 2 * Math.sqrt(Math.log(3) / 2), 12);
    expect(valueUct(t, 0)).toBeCloseTo(1.5 / 3, 12); // root: no bonus
  });
});

describe('ScoringSchema', () => {
  it('fills defaults and accepts the short strings', () => {
    expect(ScoringSchema.parse('uct')).toEqual({ kind: 'uct', exploration: Math.SQRT2 });
    expect(ScoringSchema.parse('thompson')).toEqual({ kind: 'thompson', alpha: 1, beta: 1 });
    expect(ScoringSchema.parse({ kind: 'uct', exploration: 2 })).toEqual(uct(2));
    expect(ScoringSchema.parse({ kind: 'thompson', beta: 3 })).toEqual(thompsonSampling(1, 3));
  });

  it('rejects an unknown kind with a clear message', () => {
    const result = ScoringSchema.safeParse({ kind: 'greedy' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(`unknown scoring "greedy": expected 'uct' or 'thompson'`);
    expect(ScoringSchema.safeParse('ucb').error?.issues[0].message).toBe(`unknown scoring "ucb": expected 'uct' or 'thompson'`);
  });

  it('rejects bad parameters and unknown keys', () => {
    expect(ScoringSchema.safeParse({ kind: 'uct', exploration: -1 }).success).toBe(false);
    expect(ScoringSchema.safeParse({ kind: 'thompson', alpha: 0 }).success).toBe(false);
    expect(ScoringSchema.safeParse({ kind: 'uct', c: 1 }).error?.issues[0].message).toMatch(/Unrecognized key: "c"/);
  });
});
