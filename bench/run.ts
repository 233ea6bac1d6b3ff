/**
 * grove's benchmark suite: `npm run bench` (all, about 10 minutes here) or
 * `npm run bench -- --quick` (smaller sizes), `--only a,b` for some. Prints one table per
 * benchmark and writes bench/results/<name>.json plus bench/results/summary.md.
 * Measurements, not tests: nothing fails on a slow figure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historySize } from './benchmarks/history-size';
import { runOps } from './benchmarks/run-ops';
import { overhead } from './benchmarks/overhead';
import { stepKinds } from './benchmarks/step-kinds';
import { parallelSearch } from './benchmarks/parallel-search';
import { crashRecovery } from './benchmarks/crash-recovery';
import { scale } from './benchmarks/scale';
import { searchQuality } from './benchmarks/search-quality';
import { selectTree } from './benchmarks/select-tree';
import { ui } from './benchmarks/ui';
import { steering } from './benchmarks/steering';
import { sandbox } from './benchmarks/sandbox';
import { code } from './benchmarks/code';
import { realModels } from './benchmarks/real-models';
import { budgetCurve } from './benchmarks/budget-curve';
import { humanEval } from './benchmarks/human-eval';
import { mcpTools } from './benchmarks/mcp-tools';
import { telemetry } from './benchmarks/telemetry';
import { streaming } from './benchmarks/streaming';
import type { Benchmark } from './lib/benchmark';
import { openBenchEnv, type BenchEnv } from './lib/bench-env';
import { printTable, writeResult } from './lib/report';

const SUITE: Benchmark[] = [overhead, stepKinds, parallelSearch, historySize, crashRecovery, runOps, scale, searchQuality, selectTree, ui, steering, sandbox, code, realModels, budgetCurve, mcpTools, humanEval, telemetry, streaming];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const onlyArg = args.find((a) => a.startsWith('--only'));
  const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',') : undefined;
  const selected = SUITE.filter((b) => (only ? only.includes(b.name) : !b.long));
  if (selected.length === 0) throw new Error(`no benchmark named ${only?.join(', ')} (have: ${SUITE.map((b) => b.name).join(', ')})`);

  const env: BenchEnv = await openBenchEnv({ quick, log: (l) => console.log(l) });
  try {
    for (const bench of selected) {
      const t0 = Date.now();
      console.log(`== ${bench.name}`);
      const output = await bench.run(env);
      for (const table of output.tables) printTable(table.title, table.rows);
      for (const note of output.notes ?? []) console.log(`  ${note}`);
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      console.log(`  (${seconds} s)\n`);
      if (output.partial) {
        console.log(`  ${output.partial}: bench/results/${bench.name}.json not written\n`);
        continue;
      }
      writeResult(bench.name, { quick, seconds: Number(seconds), title: bench.title, tables: output.tables, notes: output.notes ?? [], ...((output.data as object) ?? {}) });
    }
  } finally {
    await env.close();
  }
  writeSummary();
}

/** bench/results/summary.md: the latest tables of every benchmark, from their JSON files. */
function writeSummary(): void {
  const sections = SUITE.map((bench) => {
    let result: { date: string; data: { quick: boolean; seconds: number; title: string; tables: { title: string; rows: Record<string, string | number>[] }[]; notes: string[] } };
    try {
      result = JSON.parse(readFileSync(join(__dirname, 'results', `${bench.name}.json`), 'utf8'));
    } catch {
      return `## ${bench.title}\n\n(not run yet)\n`;
    }
    const { data } = result;
    return [
      `## ${data.title ?? bench.title}`,
      '',
      `_${data.quick ? 'quick' : 'full'} run of ${result.date.slice(0, 10)}, ${data.seconds} s_`,
      '',
      ...(data.tables ?? []).flatMap((t) => [`**${t.title}**`, '', markdownTable(t.rows), '']),
      ...(data.notes ?? []).map((n) => `- ${n}`),
      '',
    ].join('\n');
  });
  writeFileSync(join(__dirname, 'results', 'summary.md'), `# grove benchmarks (Node ${process.version}; reproduce with \`npm run bench\`)\n\n${sections.join('\n')}`);
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
