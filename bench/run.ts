/**
 * grove's benchmark suite: `npm run bench` (all, about 10 minutes here) or
 * `npm run bench -- --quick` (smaller sizes), `--only a,b` for some. Prints one table per
 * benchmark and writes bench/results/<name>.json plus bench/results/summary.md.
 * Measurements, not tests: nothing fails on a slow figure.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historySize } from './benchmarks/history-size';
import { overhead } from './benchmarks/overhead';
import { crashRecovery } from './benchmarks/crash-recovery';
import { scale } from './benchmarks/scale';
import { searchQuality } from './benchmarks/search-quality';
import { selectTree } from './benchmarks/select-tree';
import type { Benchmark } from './lib/benchmark';
import { openBenchEnv, type BenchEnv } from './lib/bench-env';
import { printTable, writeResult } from './lib/report';

const SUITE: Benchmark[] = [overhead, historySize, crashRecovery, scale, searchQuality, selectTree];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const onlyArg = args.find((a) => a.startsWith('--only'));
  const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',') : undefined;
  const selected = SUITE.filter((b) => !only || only.includes(b.name));
  if (selected.length === 0) throw new Error(`no benchmark named ${only?.join(', ')} (have: ${SUITE.map((b) => b.name).join(', ')})`);

  const started = Date.now();
  const env: BenchEnv = await openBenchEnv({ quick, log: (l) => console.log(l) });
  const summary: string[] = [`# grove benchmarks (${quick ? 'quick' : 'full'} run, ${new Date().toISOString().slice(0, 10)}, Node ${process.version})`, ''];
  try {
    for (const bench of selected) {
      const t0 = Date.now();
      console.log(`== ${bench.name}`);
      const output = await bench.run(env);
      for (const table of output.tables) printTable(table.title, table.rows);
      for (const note of output.notes ?? []) console.log(`  ${note}`);
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      console.log(`  (${seconds} s)\n`);
      writeResult(bench.name, { quick, seconds: Number(seconds), ...((output.data as object) ?? {}) });
      summary.push(`## ${bench.title}`, '', ...output.tables.flatMap((t) => [markdownTable(t.rows), '']), ...(output.notes ?? []).map((n) => `- ${n}`), '');
    }
  } finally {
    await env.close();
  }
  summary.push(`Total: ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  if (!only) writeFileSync(join(__dirname, 'results', 'summary.md'), `${summary.join('\n')}\n`);
}

function markdownTable(rows: Record<string, string | number>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const line = (cells: (string | number | undefined)[]) => `| ${cells.map((c) => String(c ?? '')).join(' | ')} |`;
  return [line(columns), line(columns.map(() => '---')), ...rows.map((r) => line(columns.map((c) => r[c])))].join('\n');
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
