import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { llmConfigFromEnv } from '../../activities/llm/llm-config';
import { startLocalModel } from '../../client/local/ensure-model';
import { seededRandom } from '../../core/random';
import { spread, wilson, type Benchmark, type Row } from '../lib/benchmark';
import { loadHumanEval, type HumanEvalProblem } from '../lib/human-eval';
import { linearFixer, mcts, modelActivities, sampling, treeFixer, verdict, type MethodRun } from '../lib/human-eval-methods';
import { localModelFile, LOCAL_MODELS } from '../lib/local-models';

/** Completions per problem the methods may spend; every method is measured at these budgets where it has a meaning. */
const BUDGETS = [1, 4, 8];

interface Record_ {
  model: string;
  method: string;
  budget: number;
  task: string;
  solved: boolean;
  completions: number;
  requests: number;
  seconds: number;
}

/**
 * pass@1 on HumanEval with a real model — grove's embedded local model (SmolLM2-135M-Instruct,
 * node-llama-cpp on the CPU), and others by name (GROVE_HE_MODELS, e.g. `smollm2,gemma3-270m`) —
 * for one-shot, repeated sampling, the seeds' linear code fixer (3 rounds), airetry's code fixer
 * over the sample tree and MCTS over programs with the `code-tests` evaluator, at equal budgets
 * of 1, 4 and 8 completions per problem. The verdict is always the problem's own tests run on the
 * returned program in grove's sandbox — never a model's opinion. The methods get those same
 * tests as feedback (oracle feedback: an upper bound on what test feedback can give).
 *
 * Long (hours on 2 cores): not in the default suite; `npm run bench -- --only human-eval`.
 * Problems: a seeded sample of GROVE_HE_PROBLEMS (default 100; `all` for 164; 10 with --quick).
 * Every finished (model, method, problem) is kept in .grove/bench-cache/human-eval.jsonl, so an
 * interrupted run continues where it stopped.
 */
export const humanEval: Benchmark = {
  name: 'human-eval',
  title: 'HumanEval pass@1 on real small models, verified by the problems’ tests in grove’s sandbox',
  needsTemporal: false,
  long: true,
  async run(env) {
    const all = loadHumanEval();
    const wanted = process.env.GROVE_HE_PROBLEMS ?? (env.quick ? '10' : '100');
    const problems = wanted === 'all' ? all : sample(all, Number(wanted), 1);
    const models = (process.env.GROVE_HE_MODELS ?? 'smollm2').split(',').map((m) => m.trim());
    const cacheFile = join(__dirname, '..', '..', '.grove', 'bench-cache', 'human-eval.jsonl');
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    const done = new Map<string, Record_[]>();
    if (existsSync(cacheFile)) {
      for (const line of readFileSync(cacheFile, 'utf8').split('\n').filter(Boolean)) {
        const r = JSON.parse(line) as Record_;
        const key = `${r.model}|${r.method}|${r.task}`;
        done.set(key, [...(done.get(key) ?? []), r]);
      }
    }
    const records: Record_[] = [];
    for (const name of models) {
      const spec = LOCAL_MODELS[name];
      if (!spec) throw new Error(`GROVE_HE_MODELS: unknown model ${name} (known: ${Object.keys(LOCAL_MODELS).join(', ')})`);
      const local = await startLocalModel({ env: { ...process.env, GROVE_LOCAL_MODEL_PATH: await localModelFile(name) }, log: (l) => console.log(`  ${l}`) });
      const llm = llmConfigFromEnv({ OPENAI_BASE_URL: local.baseURL, OPENAI_API_KEY: 'local', GROVE_MODEL: 'smollm2', GROVE_CONTEXT_TOKENS: '2048' });
      const { activities, spent } = modelActivities(llm);
      const methods: Array<{ method: string; budgets: number[]; run: (p: HumanEvalProblem) => Promise<MethodRun> }> = [
        { method: 'sampling (B=1: one-shot, greedy)', budgets: BUDGETS, run: (p) => sampling(activities, 'smollm2', p, BUDGETS) },
        { method: 'linear code fixer, 3 rounds', budgets: [4], run: (p) => linearFixer(activities, 'smollm2', p, 3) },
        ...(spec.full ? [
          { method: 'airetry code fixer, sample tree', budgets: [4, 8], run: (p: HumanEvalProblem) => treeFixer(activities, 'smollm2', p, [4, 8]) },
          { method: 'MCTS + code-tests', budgets: [4], run: (p: HumanEvalProblem) => mcts(activities, 'smollm2', p, 4) },
          { method: 'MCTS + code-tests', budgets: [8], run: (p: HumanEvalProblem) => mcts(activities, 'smollm2', p, 8) },
        ] : []),
      ];
      try {
        for (const [i, p] of problems.entries()) {
          for (const m of methods) {
            const key = `${name}|${m.method}|${p.task_id}`;
            const cached = done.get(key)?.filter((r) => m.budgets.includes(r.budget));
            if (cached && cached.length === m.budgets.length) {
              records.push(...cached);
              continue;
            }
            const before = spent();
            const t0 = Date.now();
            const ran = await m.run(p);
            const after = spent();
            for (const budget of m.budgets) {
              const r: Record_ = { model: name, method: m.method, budget, task: p.task_id, solved: await verdict(ran.programs[budget], p), completions: after.completions - before.completions, requests: after.requests - before.requests, seconds: (Date.now() - t0) / 1000 };
              records.push(r);
              appendFileSync(cacheFile, `${JSON.stringify(r)}\n`);
            }
          }
          if ((i + 1) % 10 === 0) console.log(`  ${name}: ${i + 1}/${problems.length} problems`);
        }
      } finally {
        await local.close();
      }
    }
    const rows: Row[] = [];
    const groups = new Map<string, Record_[]>();
    for (const r of records) groups.set(`${r.model}|${r.method}|${r.budget}`, [...(groups.get(`${r.model}|${r.method}|${r.budget}`) ?? []), r]);
    for (const [key, rs] of groups) {
      const [model, method, budget] = key.split('|');
      const solved = rs.filter((r) => r.solved).length;
      const [lo, hi] = wilson(solved, rs.length);
      rows.push({
        model: LOCAL_MODELS[model!]!.label,
        method: budget === '1' ? 'one-shot (greedy)' : method!,
        'budget B': Number(budget),
        'pass@1': `${solved}/${rs.length} (${((100 * solved) / rs.length).toFixed(1)} %) [${lo}–${hi}]`,
        'completions / problem': (rs.reduce((a, r) => a + r.completions, 0) / rs.length).toFixed(2),
        'requests / problem': (rs.reduce((a, r) => a + r.requests, 0) / rs.length).toFixed(2),
        's / problem (median, min–max)': spread(rs.map((r) => r.seconds), 1).text,
      });
    }
    return {
      tables: [{ title: `${this.title}: ${problems.length} problems (seed 1), pass@1 with the 95 % Wilson interval`, rows }],
      data: { problems: problems.map((p) => p.task_id), models, budgets: BUDGETS, rows, records },
      notes: [
        'pass@1: the one program a method returns passes every test of the problem (`check(entry_point)`), run in grove’s sandbox (Pyodide, tests apart from the code). Never a model’s judgement.',
        'Budget B: completions (model outputs) a method may spend on a problem. Sampling: the first of B samples that passes the tests, else the last; the code fixers stop at the first passing attempt; MCTS: B/2 requests of 2 candidates (plus reflections).',
        'Feedback: the methods see the problem’s own tests’ failures (oracle feedback), so these are upper bounds on what test feedback gives; a user’s hidden tests would also catch a program that special-cases the visible ones.',
        'Seconds per problem: that method’s whole run on that problem (model calls and sandbox runs), one request at a time on 2 CPU cores.',
      ],
    };
  },
};

function sample<T>(items: T[], n: number, seed: number): T[] {
  const rng = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(n, copy.length)).sort((a, b) => (a as { task_id: string }).task_id.localeCompare((b as { task_id: string }).task_id, undefined, { numeric: true }));
}
