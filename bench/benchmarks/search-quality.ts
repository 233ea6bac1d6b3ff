import { createGroveActivities } from '../../activities/grove-activities';
import { inProcessAgentPort, inProcessCallPort } from '../../activities/in-process/ports';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { AgentInputSchema, type Algorithm } from '../../core/agents/agent-options';
import { runSearch, type SearchOutcome } from '../../core/agents/run-search';
import { SearchContext } from '../../core/agents/search-context';
import { SearchState } from '../../core/agents/search-state';
import { AICall, airetry, lastOutput, textOutput, type AICallPort } from '../../core/airetry';
import { seededRandom } from '../../core/random';
import type { Scoring } from '../../core/scoring/scoring';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import { multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';
import { inProcessOpenAI } from '../../model-server';
import type { BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';

const LLM = { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'multiplier-judge', timeoutMs: 1000, heartbeatIntervalMs: 1000, sendCallKey: true };

function activities(seed: number) {
  return createGroveActivities({ llm: LLM, store: new MemoryMessageStore(), client: inProcessOpenAI({ seed }), tools: exampleTools, evaluators: [multiplicationChecker] });
}

function gameCall(prompt: string, model: string, seed: number, scoring: Scoring, maxCalls: number): AICall<string> {
  const port: AICallPort = inProcessCallPort(activities(seed));
  return new AICall(promptConversation({ prompt }), {
    kind: 'generate',
    parser: textOutput,
    model,
    apiKwargs: { n: 2 },
    config: { nSamples: 2, maxCalls, maxRetries: 99, scoring },
    port,
    rng: seededRandom(seed),
  });
}

/** The seeds' color game with a noisy player; solved when the answer is "yellow" within the budget. */
async function colorGame(seed: number, scoring: Scoring, maxCalls: number) {
  const out = gameCall('Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only', 'color-guesser?sentence=0.6&capital=0.8', seed, scoring, maxCalls);
  await out.run();
  await airetry((x) => lastOutput(x).split(/ |\./).length === 1, out, 'You must answer with 1 word only.', { verbose: false });
  await airetry((x) => lastOutput(x) === lastOutput(x).toLowerCase(), out, 'You must answer in lowercase.', { verbose: false });
  await airetry((x) => lastOutput(x).startsWith('y'), out, 'It starts with "y"', { verbose: false });
  return { solved: lastOutput(out) === 'yellow', calls: out.config.calls };
}

/** The seeds' llm_guesser(33) with the same three checks. */
async function numberGame(seed: number, scoring: Scoring, maxCalls: number) {
  const target = 33;
  const out = gameCall("I'm thinking a number between 1-100. Guess which one it is. \nYou must respond only with digits and nothing else. \nYour guess:", 'number-guesser', seed, scoring, maxCalls);
  const guess = (x: AICall<string>) => (/^\d+$/.test(lastOutput(x).trim()) ? Number(lastOutput(x).trim()) : undefined);
  await out.run();
  await airetry((x) => guess(x) !== undefined, out, (x) => `Output: ${lastOutput(x)}\nFeedback: You must respond only with digits!!`, { verbose: false });
  await airetry((x) => (guess(x) ?? -1) >= 30 && (guess(x) ?? -1) <= 40, out, 'The number is between or equal to 30 to 40.', { verbose: false });
  await airetry((x) => guess(x) === target, out, (x) => `Your guess of ${guess(x)} is wrong, it's ${Math.abs((guess(x) ?? 0) - target)} numbers away.`, { verbose: false });
  return { solved: guess(out) === target, calls: out.config.calls };
}

async function multiplication(seed: number, algorithm: Algorithm, p: number, maxCalls: number) {
  const port = inProcessAgentPort(activities(seed));
  const options = AgentInputSchema.parse({
    algorithm,
    prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
    tools: ['multiply', 'final_answer'],
    model: `multiplier?p=${p}&guess=0.3`,
    evaluator: { name: 'llm', model: 'multiplier-judge' },
    maxDepth: 8,
    maxRollouts: 1000,
    budget: { maxCalls },
  });
  const state = SearchState.create(promptConversation({ prompt: options.prompt, system: null }), await port.describeTools(options.tools), 0);
  const outcome = (await runSearch(new SearchContext(state, options, port))) as SearchOutcome;
  return { solved: outcome.isSolution, calls: state.counters.llmCalls };
}

async function measure(seeds: number, one: (seed: number) => Promise<{ solved: boolean; calls: number }>) {
  const runs: { solved: boolean; calls: number; ms: number }[] = [];
  for (let seed = 0; seed < seeds; seed++) {
    const t0 = performance.now();
    const r = await one(seed);
    runs.push({ ...r, ms: performance.now() - t0 });
  }
  const solved = runs.filter((r) => r.solved);
  return {
    'solve rate': `${solved.length}/${seeds}`,
    'calls (mean)': Number((runs.reduce((n, r) => n + r.calls, 0) / seeds).toFixed(1)),
    'calls to solution (mean)': solved.length ? Number((solved.reduce((n, r) => n + r.calls, 0) / solved.length).toFixed(1)) : '-',
    'ms/run (median)': spread(runs.map((r) => r.ms), 1).median,
    runs,
  };
}

/**
 * Benchmark 5: search quality on scripted stochastic tasks, over 50 seeds (the seed drives the
 * scripted player and the search): solve rate at an equal model-call budget, and calls to the
 * first solution. In process — the durable runs make the same decisions (tested), so quality
 * does not depend on Temporal; benchmark 1 gives the durable wall-time overhead.
 */
export const searchQuality: Benchmark = {
  name: 'search-quality',
  title: 'Search quality over seeds at equal call budgets',
  needsTemporal: false,
  async run(env: BenchEnv) {
    const seeds = env.quick ? 20 : 50;
    const games: Row[] = [];
    const agents: Row[] = [];
    const data: Record<string, unknown>[] = [];
    for (const [game, fn, budget] of [['color game', colorGame, 12], ['llm_guesser(33)', numberGame, 12]] as const) {
      for (const scoring of [{ kind: 'uct', exploration: Math.SQRT2 }, { kind: 'thompson', alpha: 1, beta: 1 }] as Scoring[]) {
        const { runs, ...row } = await measure(seeds, (seed) => fn(seed, scoring, budget));
        games.push({ task: game, scoring: scoring.kind, 'max calls': budget, ...row });
        data.push({ task: game, scoring: scoring.kind, budget, runs });
      }
    }
    for (const p of [0.2, 0.4]) {
      for (const algorithm of ['mcts', 'astar', 'beam', 'greedy', 'cot'] as const) {
        const budget = 60;
        const { runs, ...row } = await measure(seeds, (seed) => multiplication(seed, algorithm, p, budget));
        agents.push({ task: `multiplier p=${p} guess=0.3`, algorithm, 'max calls': budget, ...row });
        data.push({ task: 'multiplier', p, algorithm, budget, runs });
      }
    }
    return {
      tables: [
        { title: `airetry: UCT vs Thompson sampling (${seeds} seeds, 2 samples per round)`, rows: games },
        { title: `Search agents on the multiplication task (${seeds} seeds; p = error rate per tool call, guess = premature-answer rate)`, rows: agents },
      ],
      data: { seeds, runs: data },
      notes: [
        'Calls = model calls (samples for airetry; candidate calls, LLM evaluations and reflections for agents). ms/run is in-process wall time with instant scripted models.',
      ],
    };
  },
};
