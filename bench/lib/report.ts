import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Shared output for benchmarks: a plain aligned table on stdout for people, and a JSON file
 * in `bench/results/` for tools (and for comparing runs over time).
 */

/**
 * Prints rows as an aligned table (columns from the union of the rows' keys, in first-seen
 * order; numbers right-aligned).
 *
 * @example
 * printTable('select (ms)', [{ nodes: 1000, median: 0.12 }]);
 */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const cell = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: Array<string | number | undefined>, numeric: boolean[]) =>
    values.map((v, i) => (numeric[i] ? cell(v).padStart(widths[i]) : cell(v).padEnd(widths[i]))).join('  ').trimEnd();
  const isNumeric = columns.map((c) => rows.every((r) => r[c] === undefined || typeof r[c] === 'number'));
  const out = [
    title,
    line(columns, isNumeric),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map((r) => line(columns.map((c) => r[c]), isNumeric)),
  ];
  process.stdout.write(`${out.join('\n')}\n\n`);
}

/**
 * Writes `bench/results/<name>.json` as `{ name, date, node, data }` and returns its path.
 *
 * @example
 * writeResult('select-tree', { rows });
 */
export function writeResult(name: string, data: unknown): string {
  const dir = join(__dirname, '..', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  const payload = { name, date: new Date().toISOString(), node: process.version, data };
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}

/** Median, min and max of some timings (ms), rounded for display. */
export function summarize(samples: number[], digits = 4): { median: number; min: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const round = (x: number) => Number(x.toFixed(digits));
  return { median: round(median), min: round(sorted[0]), max: round(sorted[sorted.length - 1]) };
}
