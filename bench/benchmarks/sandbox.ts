import { execCode } from '../../activities/sandbox/exec-code';
import type { CodeLanguage } from '../../core/code/code-outcome';
import type { Benchmark, Row } from '../lib/benchmark';
import { spread } from '../lib/benchmark';

const PROGRAMS: Record<CodeLanguage, string> = {
  js: 'let s = 0; for (let i = 0; i < 1000; i++) s += i; console.log(s)',
  ts: 'let s: number = 0;\nfor (let i = 0; i < 1000; i++) s += i;\nconsole.log(s)',
  python: 's = sum(range(1000))\nprint(s)',
};

/**
 * What a sandbox run costs: for each engine, the wall time of a trivial program (a fresh child
 * process, the engine loaded, the code run, the outcome returned) and the part spent inside the
 * engine, so the start overhead is their difference. Every run starts from nothing: that is the
 * price of no state between runs.
 */
export const sandbox: Benchmark = {
  name: 'sandbox',
  title: 'Sandbox cost per run: a fresh process and engine every time',
  needsTemporal: false,
  async run(env) {
    const runs = env.quick ? 5 : 15;
    const rows: Row[] = [];
    for (const language of Object.keys(PROGRAMS) as CodeLanguage[]) {
      const wall: number[] = [];
      const engine: number[] = [];
      for (let i = 0; i < runs + 1; i++) {
        const t0 = performance.now();
        const out = await execCode({ language, code: PROGRAMS[language] });
        if (!out.ok) throw new Error(`${language}: ${out.error?.message}`);
        if (i === 0) continue; // the first run also reads the engine files from disk
        wall.push(performance.now() - t0);
        engine.push(out.durationMs);
      }
      const w = spread(wall, 0);
      const e = spread(engine, 0);
      rows.push({ engine: language === 'python' ? 'python (Pyodide)' : `${language} (QuickJS${language === 'ts' ? ', sucrase' : ''})`, runs, 'wall ms per run': w.text, 'in-engine ms': e.text, 'start + teardown ms (median)': Math.round(w.median - e.median) });
    }
    return { tables: [{ title: this.title, rows }], data: { rows } };
  },
};
