import { z } from 'zod';
import { spread, wilson, type Row } from './benchmark';

/**
 * The HumanEval bench's plan and bookkeeping, kept pure so it can be tested: which methods run
 * at which budgets, what each row is called, what a method had spent when a budget's answer was
 * decided, and which saved progress records belong to the current plan.
 */

/**
 * Changes whenever what a record measures changes (problems, budgets, prompts, limits, verdict):
 * records of another plan version are ignored, never mixed into a table.
 */
export const PLAN_VERSION = 'he-2: 100 problems (seed 1), B=1,4, max_tokens 384, stop at the closing fence';
/** The plan: a seeded sample of this many of the 164 problems. */
export const PLAN_PROBLEMS = 100;
export const PLAN_SEED = 1;
/** Completions per problem a method may spend (B=8 would double the run, past what fits). */
export const BUDGETS = [1, 4] as const;
/** max_tokens of every completion: HumanEval solutions are short, and a degenerate repetition runs to the cap. */
export const MAX_TOKENS = 384;

export const METHODS = ['sampling', 'linear-fixer', 'tree-fixer', 'mcts'] as const;
export type MethodId = (typeof METHODS)[number];

/** The budgets each method is measured at (a fixer or a search needs more than one completion to be one). */
export const METHOD_BUDGETS: Record<MethodId, readonly number[]> = {
  sampling: BUDGETS,
  'linear-fixer': [4],
  'tree-fixer': [4],
  mcts: [4],
};

/** What a method had spent (since it started on the problem) when an answer was decided. */
export interface Spend {
  completions: number;
  requests: number;
  seconds: number;
}

/**
 * What exactly ran for a method at a budget, as the table says it.
 *
 * @example
 * methodLabel('sampling', 1); // 'one-shot (greedy, temperature 0)'
 */
export function methodLabel(method: MethodId, budget: number): string {
  switch (method) {
    case 'sampling':
      return budget === 1
        ? 'one-shot (greedy, temperature 0)'
        : `repeated sampling (1 greedy + ${budget - 1} at temperature 0.8; the first that passes the tests)`;
    case 'linear-fixer':
      return `linear code fixer (an answer, then up to ${budget - 1} rounds of test feedback; temperature 0.7)`;
    case 'tree-fixer':
      return `airetry code fixer over the sample tree (2 samples a round, UCT; up to ${budget} samples; temperature 0.7)`;
    case 'mcts':
      return `MCTS (LATS) + code-tests evaluator (up to ${Math.max(1, Math.floor(budget / 2))} requests of 2 candidates, reflections included)`;
  }
}

/**
 * Which draw decides the answer at budget `k` when draws are tested one by one and the first to
 * pass is kept: the passing draw if it came within the first `k`, else the `k`-th (or the last
 * one drawn, when fewer were). Its spend is what the method had spent at that point.
 *
 * @example
 * decidingDraw(2, 4, 3); // 2: the third draw passed
 * decidingDraw(undefined, 1, 4); // 0
 */
export function decidingDraw(passedAt: number | undefined, k: number, drawn: number): number {
  if (drawn < 1) throw new Error('decidingDraw: nothing was drawn');
  return passedAt !== undefined && passedAt < k ? passedAt : Math.min(k, drawn) - 1;
}

/**
 * The answers and spends of a method that draws and tests one program at a time, for each
 * budget: `marks[i]` is what it had spent once draw `i` was tested.
 *
 * @example
 * perBudget([1, 4], ['a', 'b'], [s1, s2], 1); // { programs: { 1: 'a', 4: 'b' }, spent: { 1: s1, 4: s2 } }
 */
export function perBudget(budgets: readonly number[], programs: (string | undefined)[], marks: Spend[], passedAt: number | undefined): { programs: Record<number, string | undefined>; spent: Record<number, Spend> } {
  if (marks.length !== programs.length) throw new Error(`perBudget: ${programs.length} programs but ${marks.length} marks`);
  const pick = budgets.map((k) => [k, decidingDraw(passedAt, k, programs.length)] as const);
  return {
    programs: Object.fromEntries(pick.map(([k, i]) => [k, programs[i]])),
    spent: Object.fromEntries(pick.map(([k, i]) => [k, marks[i]!])),
  };
}

/** One (model, method, problem, budget) measurement, as kept in the progress file. */
export const ProgressRecordSchema = z.object({
  plan: z.string(),
  model: z.string(),
  modelFile: z.string(),
  modelSha256: z.string(),
  maxTokens: z.number().int(),
  method: z.enum(METHODS),
  budget: z.number().int().positive(),
  task: z.string(),
  solved: z.boolean(),
  completions: z.number().int().nonnegative(),
  requests: z.number().int().nonnegative(),
  seconds: z.number().nonnegative(),
  /**
   * The method failed on the problem (a model endpoint or sandbox error) and returned no program.
   * Not a result: such a record (written by an earlier bench) is read as not done, so the next
   * run measures that cell again — an endpoint that timed out while the machine was paused says
   * nothing of the model.
   */
  error: z.string().optional(),
});
export type ProgressRecord = z.infer<typeof ProgressRecordSchema>;

/** What makes a record comparable with the current run. */
export interface PlanIdentity {
  plan: string;
  maxTokens: number;
  /** Model name → SHA-256 of its GGUF file. */
  models: Record<string, string>;
}

/**
 * The records of the progress file that belong to this plan (same plan version, `max_tokens`
 * and model file), the last one winning for a (model, method, problem, budget); lines of other
 * plans or that do not parse are counted, not used, and so are records of a method that ended in
 * an error (`retried`: measured again, never counted as no pass).
 *
 * @example
 * const { records, ignored } = readProgress(text, { plan: PLAN_VERSION, maxTokens: MAX_TOKENS, models: { smollm2: sha } });
 */
export function readProgress(text: string, current: PlanIdentity): { records: ProgressRecord[]; ignored: number; retried: number } {
  const kept = new Map<string, ProgressRecord>();
  let ignored = 0;
  let retried = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: ReturnType<typeof ProgressRecordSchema.safeParse>;
    try {
      parsed = ProgressRecordSchema.safeParse(JSON.parse(line));
    } catch {
      ignored += 1;
      continue;
    }
    const r = parsed.success ? parsed.data : undefined;
    if (!r || r.plan !== current.plan || r.maxTokens !== current.maxTokens || current.models[r.model] !== r.modelSha256) {
      ignored += 1;
      continue;
    }
    if (r.error !== undefined) {
      retried += 1;
      continue;
    }
    kept.set(recordKey(r), r);
  }
  return { records: [...kept.values()], ignored, retried };
}

export const recordKey = (r: Pick<ProgressRecord, 'model' | 'method' | 'task' | 'budget'>) => `${r.model}|${r.method}|${r.task}|${r.budget}`;

/** The (method, budget) pairs a model is measured at. */
export function planCells(methods: readonly MethodId[]): Array<{ method: MethodId; budget: number }> {
  return methods.flatMap((method) => METHOD_BUDGETS[method].map((budget) => ({ method, budget })));
}

/**
 * The problems every model has finished (a record for each of its method and budget pairs),
 * in the plan's order.
 *
 * @example
 * doneProblems(records, ['HumanEval/0'], { smollm2: ['sampling'] }); // ['HumanEval/0'] once both budgets are recorded
 */
export function doneProblems(records: ProgressRecord[], tasks: string[], models: Record<string, readonly MethodId[]>): string[] {
  const have = new Set(records.map(recordKey));
  return tasks.filter((task) => Object.entries(models).every(([model, methods]) => planCells(methods).every((c) => have.has(recordKey({ model, task, ...c })))));
}

/**
 * The table: one row per model, method and budget, over the given problems only (so every row
 * counts the same problems), budgets ascending, methods in plan order.
 */
export function tableRows(records: ProgressRecord[], tasks: string[], modelLabel: (model: string) => string): Row[] {
  const wanted = new Set(tasks);
  const groups = new Map<string, ProgressRecord[]>();
  for (const r of records.filter((x) => wanted.has(x.task))) {
    const key = `${r.model}|${r.budget}|${METHODS.indexOf(r.method)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const order = (key: string) => key.split('|');
  return [...groups.keys()]
    .sort((a, b) => {
      const [ma, ba, ia] = order(a);
      const [mb, bb, ib] = order(b);
      return ma!.localeCompare(mb!) || Number(ba) - Number(bb) || Number(ia) - Number(ib);
    })
    .map((key) => {
      const rs = groups.get(key)!;
      const first = rs[0]!;
      const solved = rs.filter((r) => r.solved).length;
      const [lo, hi] = wilson(solved, rs.length);
      const mean = (f: (r: ProgressRecord) => number) => (rs.reduce((a, r) => a + f(r), 0) / rs.length).toFixed(2);
      return {
        model: modelLabel(first.model),
        method: methodLabel(first.method, first.budget),
        'budget B': first.budget,
        'pass@1': `${solved}/${rs.length} (${((100 * solved) / rs.length).toFixed(1)} %) [${lo}–${hi}]`,
        'completions / problem': mean((r) => r.completions),
        'requests / problem': mean((r) => r.requests),
        's / problem (median, min–max)': spread(rs.map((r) => r.seconds), 1).text,
      };
    });
}
