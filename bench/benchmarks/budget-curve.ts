import { createGroveActivities } from '../../activities/grove-activities';
import { inProcessAgentPort } from '../../activities/in-process/ports';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { AgentInputSchema, type Algorithm } from '../../core/agents/agent-options';
import { trajectoryInput } from '../../core/agents/path-book';
import { runSearch, type SearchOutcome } from '../../core/agents/run-search';
import { SearchContext, type SearchBehaviour } from '../../core/agents/search-context';
import { SearchState } from '../../core/agents/search-state';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import { checkMultiplication, multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';
import { inProcessOpenAI } from '../../model-server';
import { wilson, type Benchmark, type Row } from '../lib/benchmark';

const LLM = { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'multiplier-judge', timeoutMs: 1000, heartbeatIntervalMs: 1000, sendCallKey: false };
const BUDGETS = [10, 15, 18, 20, 30, 60];
const ALGORITHMS: Algorithm[] = ['mcts', 'astar', 'beam', 'greedy', 'cot'];
const JUDGES = [
  { name: 'oracle (multiplier-judge, recomputes every step)', model: 'multiplier-judge' },
  { name: 'noisy LLM-like judge (noisy-judge)', model: 'noisy-judge' },
];

/**
 * Solve rate against the call budget B, with 95 % Wilson intervals over many seeds, for every
 * algorithm, under the oracle judge and under a judge with realistic error (`noisy-judge`: it
 * reads the trajectory only, noisy, misreads, biased toward confident answers). "Solved" is the
 * truth — the best trajectory's final answer is the right number (checked by recomputation
 * here, in the benchmark, never by the judge) — not what the search believes. MCTS also runs
 * without planned width and without anytime budgets, as ablations.
 * Seeds: GROVE_BENCH_SEEDS (default 100; 30 with --quick).
 */
export const budgetCurve: Benchmark = {
  name: 'budget-curve',
  title: 'Solved (true final answer) vs call budget B, multiplication task, p = 0.2, guess = 0.3',
  needsTemporal: false,
  async run(env) {
    const seeds = Number(process.env.GROVE_BENCH_SEEDS ?? (env.quick ? 30 : 100));
    const tables: { title: string; rows: Row[] }[] = [];
    const data: Record<string, unknown>[] = [];
    for (const judge of JUDGES) {
      const rows: Row[] = [];
      const variants: Array<{ label: string; algorithm: Algorithm; behaviour: Partial<SearchBehaviour> }> = [
        ...ALGORITHMS.map((algorithm) => ({ label: algorithm, algorithm, behaviour: {} })),
        { label: 'mcts, no planned width (anytime only)', algorithm: 'mcts', behaviour: { plannedWidth: false } },
        { label: 'mcts, neither (a step that does not fit is refused)', algorithm: 'mcts', behaviour: { plannedWidth: false, anytime: false } },
      ];
      for (const v of variants) {
        const row: Row = { algorithm: v.label };
        for (const budget of BUDGETS) {
          let solved = 0;
          let calls = 0;
          for (let seed = 0; seed < seeds; seed++) {
            const r = await search(seed, v.algorithm, judge.model, budget, v.behaviour);
            solved += r.solved ? 1 : 0;
            calls += r.calls;
          }
          const [lo, hi] = wilson(solved, seeds);
          row[`B=${budget}`] = `${solved}/${seeds} [${lo}–${hi}]`;
          data.push({ judge: judge.model, algorithm: v.label, budget, seeds, solved, meanCalls: calls / seeds, ci95: [lo, hi] });
        }
        rows.push(row);
      }
      tables.push({ title: `${judge.name}: solved of ${seeds} seeds [95 % Wilson interval, %]`, rows });
    }
    // Reflection's effect, with a player that reads reflections (listens=0.5: half as error-prone once told what went wrong).
    const rows: Row[] = [];
    for (const reflection of [true, false]) {
      const row: Row = { algorithm: `mcts, reflection ${reflection ? 'on' : 'off'}` };
      for (const budget of BUDGETS) {
        let solved = 0;
        for (let seed = 0; seed < seeds; seed++) solved += (await search(seed, 'mcts', 'noisy-judge', budget, {}, { player: LISTENING_PLAYER, reflection })).solved ? 1 : 0;
        const [lo, hi] = wilson(solved, seeds);
        row[`B=${budget}`] = `${solved}/${seeds} [${lo}–${hi}]`;
        data.push({ judge: 'noisy-judge', player: LISTENING_PLAYER, algorithm: 'mcts', reflection, budget, seeds, solved, ci95: [lo, hi] });
      }
      rows.push(row);
    }
    tables.push({ title: `Reflection on and off, noisy judge, a player that reads reflections (${LISTENING_PLAYER}): solved of ${seeds} seeds [95 % Wilson interval, %]`, rows });
    return {
      tables,
      data: { seeds, budgets: BUDGETS, results: data },
      notes: [
        'The scripted player errs on 20 % of its tool calls and guesses the final number early 30 % of the time; bFactor 3, maxDepth 8, the LLM evaluator is the named judge.',
        'Anytime budgets: when a whole expansion (1 candidates call + 1 evaluation per candidate) does not fit, the last one asks for fewer candidates instead of stopping.',
        'Planned width (MCTS, greedy): each expansion is the widest that still leaves one call per step down to maxDepth plus the evaluation of the answer; when none does, the step is one unevaluated candidate (a finished answer is still evaluated).',
        'The player of the first two tables does not read reflections; the last table uses one that does (listens=0.5: its error and guess rates halve once its prompt carries reflections), with reflection on and off.',
      ],
    };
  },
};

const LISTENING_PLAYER = 'multiplier?p=0.2&guess=0.3&listens=0.5';

async function search(
  seed: number,
  algorithm: Algorithm,
  judge: string,
  maxCalls: number,
  behaviour: Partial<SearchBehaviour>,
  over: { player?: string; reflection?: boolean } = {},
): Promise<{ solved: boolean; calls: number }> {
  const activities = createGroveActivities({ llm: LLM, store: new MemoryMessageStore(), client: inProcessOpenAI({ seed }), tools: exampleTools, evaluators: [multiplicationChecker] });
  const port = inProcessAgentPort(activities);
  const options = AgentInputSchema.parse({
    algorithm,
    prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
    tools: ['multiply', 'final_answer'],
    model: over.player ?? 'multiplier?p=0.2&guess=0.3',
    evaluator: { name: 'llm', model: judge },
    reflection: over.reflection ?? true,
    maxDepth: 8,
    maxRollouts: 1000,
    seed,
    budget: { maxCalls },
  });
  const state = SearchState.create(promptConversation({ prompt: options.prompt, system: null }), await port.describeTools(options.tools), 0);
  const outcome = (await runSearch(new SearchContext(state, options, port, behaviour))) as SearchOutcome;
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  return { solved: checkMultiplication(messages).score === 1, calls: state.counters.llmCalls };
}
