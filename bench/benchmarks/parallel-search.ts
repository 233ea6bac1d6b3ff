import type { AgentInput } from '../../core/agents/agent-options';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { agentInProcess } from '../lib/in-process-runs';
import { checkMultiplication } from '../../examples/evaluators/multiplication-checker';
import { QUICKSTART_MCTS } from './overhead';

const LATENCY_MS = 200;

/**
 * Parallel search at a realistic model latency: the MCTS quickstart over several seeds with an
 * error-prone player and the noisy judge (so a search needs several rollouts), sequential in
 * process (the baseline a tree-search library gives) and durable, each with `parallelism` 1 and
 * 3 (and durable with 4), at two call budgets — wall time per search, model calls, solved (as
 * the judge decides) and right (the final answer recomputed here, never by the judge).
 * The scripted model answers after 200 ms.
 */
export const parallelSearch: Benchmark = {
  name: 'parallel-search',
  title: `Parallel MCTS at ${LATENCY_MS} ms model latency: wall time per search and solve rate (quickstart, player p=0.4 guess=0.4, noisy judge)`,
  needsTemporal: true,
  async run(env: BenchEnv) {
    const seeds = env.quick ? [1, 2, 3] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const budgets = env.quick ? [60] : [60, 120];
    const modes = [
      { name: 'in process, sequential', durable: false, parallelism: 1 },
      { name: 'in process, parallelism 3', durable: false, parallelism: 3 },
      { name: 'durable, sequential', durable: true, parallelism: 1 },
      { name: 'durable, parallelism 3', durable: true, parallelism: 3 },
      { name: 'durable, parallelism 4', durable: true, parallelism: 4 },
    ];
    const queue = benchQueue('parallel');
    const worker = await env.worker(queue);
    const results = budgets.flatMap((maxCalls) => modes.map((m) => ({ ...m, maxCalls, wallMs: [] as number[], calls: [] as number[], solved: 0, right: 0 })));
    env.model.clearFaults();
    env.model.addFault({ action: { kind: 'latency', ms: LATENCY_MS }, times: 0 });
    await worker.runUntil(async () => {
      for (const seed of seeds) {
        for (const mode of results) {
          // The scripted server ignores `seed`; an option in the model name varies its answers.
          const input: AgentInput = {
            ...QUICKSTART_MCTS,
            model: `multiplier?p=0.4&guess=0.4&seed=${seed}`,
            evaluator: { name: 'llm', model: `noisy-judge?seed=${seed}` },
            parallelism: mode.parallelism,
            budget: { maxCalls: mode.maxCalls },
          };
          const t0 = performance.now();
          if (mode.durable) {
            const result = await env.grove(queue).run('agent', input);
            mode.calls.push(result.counters.llmCalls);
            if (result.isSolution) mode.solved += 1;
            if (checkMultiplication(result.messages).score === 1) mode.right += 1;
          } else {
            const run = await agentInProcess(env, input);
            mode.calls.push(run.state.counters.llmCalls);
            if (run.outcome.stop.kind === 'solved') mode.solved += 1;
            if (checkMultiplication(run.messages).score === 1) mode.right += 1;
          }
          mode.wallMs.push(performance.now() - t0);
        }
      }
    });
    env.model.clearFaults();
    const rows: Row[] = results.map((m) => {
      const baseline = spread(results.find((r) => r.maxCalls === m.maxCalls && !r.durable && r.parallelism === 1)!.wallMs, 0).median;
      const w = spread(m.wallMs, 0);
      return {
        budget: m.maxCalls,
        search: m.name,
        'wall ms': w.text,
        'vs sequential in process': Number((w.median / baseline).toFixed(2)),
        'model calls': spread(m.calls, 0).text,
        'solved (judge)': `${m.solved}/${seeds.length}`,
        'right answer (checked)': `${m.right}/${seeds.length}`,
      };
    });
    return {
      tables: [{ title: `${this.title}; median (min–max) over ${seeds.length} seeds`, rows }],
      data: { latencyMs: LATENCY_MS, seeds, budgets, results },
      notes: [
        'Parallel rounds apply their results in selection order, so each row is reproducible from its seed; parallel rows explore differently from sequential ones (virtual loss), hence different calls and solves.',
      ],
    };
  },
};
