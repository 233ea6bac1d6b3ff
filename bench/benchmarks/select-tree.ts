import { seededRandom, selectBest, selectDescending, thompsonSampling, uct, valueUct } from '../../core';
import type { Benchmark, Row } from '../lib/benchmark';
import { randomTree, treeHeight } from '../lib/random-tree';
import { summarize } from '../lib/report';

const SEED = 20240601;

function time(repetitions: number, fn: () => unknown): number[] {
  fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

/**
 * How long one selection takes on trees of 1k / 10k / 100k nodes: `selectBest` (UCT and
 * Thompson, postorder: it scores every node, as airetry does each round) and
 * `selectDescending` (value UCT, one path, as MCTS does). Pure core, no Temporal.
 */
export const selectTree: Benchmark = {
  name: 'select-tree',
  title: 'Selection time per call in a sample tree (core, in process)',
  needsTemporal: false,
  async run(env) {
    const sizes = env.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
    const rows: Row[] = [];
    for (const size of sizes) {
      const tree = randomTree(size, seededRandom(SEED + size));
      const rng = seededRandom(SEED);
      const repetitions = size >= 100_000 ? 7 : size >= 10_000 ? 21 : 51;
      const cases: Array<[string, () => unknown]> = [
        ['selectBest UCT (postorder)', () => selectBest(tree, uct(), { ordering: 'postorder' })],
        ['selectBest Thompson (postorder)', () => selectBest(tree, thompsonSampling(), { ordering: 'postorder', rng })],
        ['selectDescending value UCT', () => selectDescending(tree, { score: (n) => valueUct(tree, n.id, 1) })],
      ];
      for (const [name, fn] of cases) {
        const { median, min, max } = summarize(time(repetitions, fn), 3);
        rows.push({ nodes: size, height: treeHeight(tree), selection: name, reps: repetitions, 'median ms': median, 'min ms': min, 'max ms': max });
      }
    }
    return { tables: [{ title: this.title, rows }], data: { seed: SEED, rows } };
  },
};
