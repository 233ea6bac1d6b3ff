/**
 * How long one selection takes on trees of 1k / 10k / 100k nodes: `selectBest` (UCT and
 * Thompson, postorder: it scores every node) and `selectDescending` (valueUct, one path).
 * Selection runs in the workflow on every step, so this bounds the workflow-side cost of a
 * search step. Run with `npx tsx bench/select-tree.ts`.
 */
import { performance } from 'node:perf_hooks';
import { seededRandom, selectBest, selectDescending, thompsonSampling, uct, valueUct } from '../core';
import { randomTree, treeHeight } from './lib/random-tree';
import { printTable, summarize, writeResult } from './lib/report';

const SIZES = [1_000, 10_000, 100_000];
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

const rows: Record<string, string | number>[] = [];
for (const size of SIZES) {
  const tree = randomTree(size, seededRandom(SEED + size));
  const rng = seededRandom(SEED);
  const repetitions = size >= 100_000 ? 7 : size >= 10_000 ? 21 : 51;
  const cases: Array<[string, () => unknown]> = [
    ['selectBest uct postorder', () => selectBest(tree, uct(), { ordering: 'postorder' })],
    ['selectBest thompson postorder', () => selectBest(tree, thompsonSampling(), { ordering: 'postorder', rng })],
    ['selectDescending valueUct', () => selectDescending(tree, { score: (n) => valueUct(tree, n.id, 1) })],
  ];
  for (const [name, fn] of cases) {
    const { median, min, max } = summarize(time(repetitions, fn));
    rows.push({ nodes: size, height: treeHeight(tree), selection: name, reps: repetitions, medianMs: median, minMs: min, maxMs: max });
  }
}

printTable('Selection time per call (ms)', rows);
const file = writeResult('select-tree', { seed: SEED, rows });
process.stdout.write(`wrote ${file}\n`);
