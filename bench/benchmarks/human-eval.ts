import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { llmConfigFromEnv } from '../../activities/llm/llm-config';
import { startLocalModel } from '../../client/local/ensure-model';
import { sha256File } from '../../client/local/local-model-file';
import { seededRandom } from '../../core/random';
import type { Benchmark } from '../lib/benchmark';
import { loadHumanEval, type HumanEvalProblem } from '../lib/human-eval';
import { linearFixer, mcts, modelActivities, sampling, treeFixer, Verdicts, type MethodEnv, type MethodRun } from '../lib/human-eval-methods';
import {
  doneProblems, MAX_TOKENS, METHOD_BUDGETS, METHODS, PLAN_PROBLEMS, PLAN_SEED, PLAN_VERSION, planCells, readProgress, recordKey, tableRows,
  type MethodId, type ProgressRecord,
} from '../lib/human-eval-plan';
import { localModelFile, LOCAL_MODELS } from '../lib/local-models';
import type { GroveActivities } from '../../activities/grove-activities';

/** Committed, so a run continues on another machine where this one stopped. */
const PROGRESS_FILE = join(__dirname, '..', 'results', 'human-eval.progress.jsonl');

/**
 * pass@1 on HumanEval with a real model — grove's embedded local model (SmolLM2-135M-Instruct,
 * node-llama-cpp on the CPU), and others by name (GROVE_HE_MODELS, e.g. `smollm2,gemma3-270m`) —
 * for one-shot (B=1), repeated sampling, the seeds' linear code fixer, airetry's code fixer over
 * the sample tree and MCTS over programs with the `code-tests` evaluator, at equal budgets of
 * B = 1 and 4 completions per problem (B=8 would double the run; the plan must fit). Every
 * completion has max_tokens 384 (HumanEval solutions are short; a degenerate repetition runs to
 * the cap) and ends at its code block's closing fence. The verdict is always the problem's own
 * tests (`check(entry_point)`) run on the returned program in grove's sandbox, as the
 * `code-tests` evaluator runs them — never a model's opinion. The methods get those same tests as
 * feedback (oracle feedback: an upper bound on what test feedback can give).
 *
 * The plan: a seeded sample of 100 of the 164 problems (seed 1), about 3 minutes a problem on 2
 * cores — too long for the default suite: `npm run bench -- --only human-eval` (`--quick` works
 * on one more problem and stops; GROVE_HE_MAX_NEW=n on n). Each (model, method, problem,
 * budget) measured is appended to bench/results/human-eval.progress.jsonl with what makes it
 * comparable (plan version, model file and SHA-256, max_tokens); records of another plan are
 * ignored, and a run resumes where the file stops. bench/results/human-eval.json is written only
 * when every problem of the plan is done; before that the table printed is marked partial.
 */
export const humanEval: Benchmark = {
  name: 'human-eval',
  title: 'HumanEval pass@1 on real small models, verified by the problems’ tests in grove’s sandbox',
  needsTemporal: false,
  long: true,
  async run(env) {
    const problems = sample(loadHumanEval(), PLAN_PROBLEMS, PLAN_SEED);
    const tasks = problems.map((p) => p.task_id);
    const maxNew = env.quick ? 1 : Number(process.env.GROVE_HE_MAX_NEW ?? Infinity);
    const names = (process.env.GROVE_HE_MODELS ?? 'smollm2').split(',').map((m) => m.trim());
    const models: Record<string, { path: string; sha256: string; methods: readonly MethodId[] }> = {};
    for (const name of names) {
      const spec = LOCAL_MODELS[name];
      if (!spec) throw new Error(`GROVE_HE_MODELS: unknown model ${name} (known: ${Object.keys(LOCAL_MODELS).join(', ')})`);
      const path = await localModelFile(name);
      models[name] = { path, sha256: await sha256File(path), methods: spec.full ? METHODS : ['sampling', 'linear-fixer'] };
    }
    const identity = { plan: PLAN_VERSION, maxTokens: MAX_TOKENS, models: Object.fromEntries(names.map((n) => [n, models[n]!.sha256])) };
    const { records, ignored, retried } = readProgress(existsSync(PROGRESS_FILE) ? readFileSync(PROGRESS_FILE, 'utf8') : '', identity);
    const methodsOf = Object.fromEntries(names.map((n) => [n, models[n]!.methods]));
    const progress = () => `${doneProblems(records, tasks, methodsOf).length} of ${PLAN_PROBLEMS} problems done`;
    console.log(`  plan ${PLAN_VERSION}: ${progress()}${ignored ? ` (${ignored} record(s) of another plan or model ignored)` : ''}${retried ? ` (${retried} record(s) of a method that ended in an error: measured again)` : ''}`);

    let started = 0;
    for (const name of names) {
      const { path, sha256: modelSha256, methods } = models[name]!;
      const have = new Set(records.map(recordKey));
      const todo = problems.filter((p) => planCells(methods).some((c) => !have.has(recordKey({ model: name, task: p.task_id, ...c }))));
      if (todo.length === 0 || started >= maxNew) continue;
      const local = await startLocalModel({ env: { ...process.env, GROVE_LOCAL_MODEL_PATH: path }, log: (l) => console.log(`  ${l}`) });
      const llm = llmConfigFromEnv({ OPENAI_BASE_URL: local.baseURL, OPENAI_API_KEY: 'local', GROVE_MODEL: 'smollm2', GROVE_CONTEXT_TOKENS: '2048' });
      const { activities, spent } = modelActivities(llm);
      try {
        for (const p of todo) {
          if (started >= maxNew) break;
          started += 1;
          const t0 = Date.now();
          const verdicts = new Verdicts(p);
          for (const method of methods) {
            const missing = METHOD_BUDGETS[method].filter((budget) => !have.has(recordKey({ model: name, method, task: p.task_id, budget })));
            if (missing.length === 0) continue;
            const before = spent();
            const methodStart = Date.now();
            const methodEnv: MethodEnv = {
              verdicts,
              meter: () => {
                const now = spent();
                return { completions: now.completions - before.completions, requests: now.requests - before.requests, seconds: (Date.now() - methodStart) / 1000 };
              },
            };
            const ran = await runMethod(method, activities, p, methodEnv).catch((err: Error) => {
              console.log(`  ${name} ${p.task_id} ${method} failed: ${err.message.split('\n')[0]}`);
              return { error: err.message.split('\n')[0]!.slice(0, 300), spent: methodEnv.meter() };
            });
            // A method that ended in an error (the endpoint timed out, the sandbox failed) measured nothing of the model: not recorded, so the next run measures it again.
            if ('error' in ran) continue;
            for (const budget of missing) {
              const r: ProgressRecord = {
                plan: PLAN_VERSION, model: name, modelFile: basename(path), modelSha256, maxTokens: MAX_TOKENS, method, budget, task: p.task_id,
                solved: await verdicts.of(ran.programs[budget]), ...ran.spent[budget]!,
              };
              records.push(r);
              have.add(recordKey(r));
              appendFileSync(PROGRESS_FILE, `${JSON.stringify(r)}\n`);
            }
          }
          console.log(`  ${name} ${p.task_id}: ${((Date.now() - t0) / 1000).toFixed(0)} s (${verdicts.runs} verdict run(s) beyond the methods' own); ${progress()}`);
        }
      } finally {
        await local.close();
      }
    }

    const done = doneProblems(records, tasks, methodsOf);
    const complete = done.length === PLAN_PROBLEMS;
    const rows = tableRows(records, done, (m) => LOCAL_MODELS[m]!.label);
    const title = complete
      ? `${this.title}: ${PLAN_PROBLEMS} problems (seed ${PLAN_SEED}), pass@1 with the 95 % Wilson interval`
      : `PARTIAL: ${done.length} of ${PLAN_PROBLEMS} problems — ${this.title} (seed ${PLAN_SEED}), pass@1 with the 95 % Wilson interval`;
    return {
      ...(complete ? {} : { partial: `partial: ${done.length} of ${PLAN_PROBLEMS} problems` }),
      tables: [{ title, rows }],
      data: { plan: PLAN_VERSION, problems: tasks, models: identity.models, maxTokens: MAX_TOKENS, rows, records: records.filter((r) => done.includes(r.task)) },
      notes: [
        'pass@1: the one program a method returns passes every test of the problem (`check(entry_point)`), run in grove’s sandbox as the code-tests evaluator runs it (Pyodide, the tests in a process apart from the code, so printing or exiting cannot fake a pass). Never a model’s judgement. A program judged twice reuses its verdict.',
        'Budget B: completions (model outputs) a method may spend on a problem, B = 1 and 4 (B = 8 would double the run, past what the plan can fit). Sampling: the first of B samples that passes the tests, else the B-th; the code fixers stop at the first passing attempt; MCTS: B/2 requests of 2 candidates, reflections counted among the requests.',
        `Every completion: max_tokens ${MAX_TOKENS} (HumanEval solutions are short; a degenerate repetition runs to the cap) and the answer ends at its code block’s closing fence.`,
        'Errors: a method that ended in a model endpoint or sandbox error on a problem is not counted (as a pass or a failure): the problem stays not done and the next run measures it again. A verdict that hit the sandbox’s 10 s limit (or an engine that did not start) is run again once with 60 s before it counts as a failure, so load alone does not fail a correct program (verdicts from the first 42 problems were taken before this re-run existed).',
        'Feedback: the methods see the problem’s own tests’ failures (oracle feedback), so these are upper bounds on what test feedback gives; a user’s hidden tests would also catch a program that special-cases the visible ones.',
        'Completions, requests and seconds per problem: what the method had spent when that budget’s answer was decided (sampling at B = 1 is charged for its first sample only), model calls and the method’s own sandbox runs, one request at a time on 2 CPU cores.',
      ],
    };
  },
};

function runMethod(method: MethodId, act: GroveActivities, p: HumanEvalProblem, env: MethodEnv): Promise<MethodRun> {
  switch (method) {
    case 'sampling':
      return sampling(act, 'smollm2', p, METHOD_BUDGETS.sampling, env);
    case 'linear-fixer':
      return linearFixer(act, 'smollm2', p, METHOD_BUDGETS['linear-fixer'][0]! - 1, env);
    case 'tree-fixer':
      return treeFixer(act, 'smollm2', p, METHOD_BUDGETS['tree-fixer'][0]!, env);
    case 'mcts':
      return mcts(act, 'smollm2', p, METHOD_BUDGETS.mcts[0]!, env);
  }
}

function sample<T extends { task_id: string }>(items: T[], n: number, seed: number): T[] {
  const rng = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(n, copy.length)).sort((a, b) => a.task_id.localeCompare(b.task_id, undefined, { numeric: true }));
}
