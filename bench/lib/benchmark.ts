import type { BenchEnv } from './bench-env';

export type Row = Record<string, string | number>;

export interface BenchmarkOutput {
  tables: { title: string; rows: Row[] }[];
  /** Everything measured, for bench/results/<name>.json. */
  data: unknown;
  /** What the figures mean, printed under the tables. */
  notes?: string[];
  /**
   * Set when the figures cover only part of the benchmark's plan (a long run under way): said
   * when printed, and bench/results/<name>.json keeps the last complete result.
   */
  partial?: string;
}

/** One benchmark of the suite: measurements, not tests — nothing here passes or fails on time. */
export interface Benchmark {
  name: string;
  title: string;
  /** Whether it needs the Temporal dev server (all but pure in-process ones). */
  needsTemporal: boolean;
  /** Hours long: run only when named (`--only`), never in the default suite. */
  long?: boolean;
  run(env: BenchEnv): Promise<BenchmarkOutput>;
}

/** Median and spread (min–max) of repeated measurements. */
export function spread(samples: number[], digits = 1): { median: number; min: number; max: number; text: string } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const r = (x: number) => Number(x.toFixed(digits));
  return { median: r(median), min: r(sorted[0]), max: r(sorted[sorted.length - 1]), text: `${r(median)} (${r(sorted[0])}–${r(sorted[sorted.length - 1])})` };
}

/** Percentile of samples (nearest rank). */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * The 95 % Wilson score interval of k successes in n trials, in whole percent.
 *
 * @example
 * wilson(3, 100); // [1, 9]
 */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 0];
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.round(100 * Math.max(0, c - h)), Math.round(100 * Math.min(1, c + h))];
}
