import type { AgentInput } from '../../core/agents/agent-options';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { agentInProcess } from '../lib/in-process-runs';
import { QUICKSTART_MCTS } from './overhead';

const LATENCY_MS = 200;

/**
 * Parallel search at a realistic model latency: the MCTS quickstart over several seeds,
 * sequential in process (the baseline a tree-search library gives), sequential durable, and
 * durable with `parallelism` 2 and 3 — wall time per search, model calls, solved. The scripted
 * model answers after 200 ms; tools and the store cost what they cost.
 */
export const parallelSearch: Benchmark = {
  name: 'parallel-search',
  title: `Parallel MCTS at ${LATENCY_MS} ms model latency: wall time per search and solve rate (quickstart, p=0.2, guess=0.3)`,
  needsTemporal: true,
  async run(env: BenchEnv) {
    const seeds = env.quick ? [1, 2, 3] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const modes = [
      { name: 'in process, sequential', durable: false, parallelism: 1 },
      { name: 'in process, parallelism 3', durable: false, parallelism: 3 },
      { name: 'durable, sequential', durable: true, parallelism: 1 },
      { name: 'durable, parallelism 2', durable: true, parallelism: 2 },
      { name: 'durable, parallelism 3', durable: true, parallelism: 3 },
    ];
    const queue = benchQueue('parallel');
    const worker = await env.worker(queue);
    const results = modes.map((m) => ({ ...m, wallMs: [] as number[], calls: [] as number[], solved: 0 }));
    env.model.clearFaults();
    env.model.addFault({ action: { kind: 'latency', ms: LATENCY_MS }, times: 0 });
    await worker.runUntil(async () => {
      for (const seed of seeds) {
        for (const mode of results) {
          const input: AgentInput = { ...QUICKSTART_MCTS, seed, parallelism: mode.parallelism, budget: { maxCalls: 60 } };
          const t0 = performance.now();
          if (mode.durable) {
            const result = await env.grove(queue).run('agent', input);
            mode.calls.push(result.counters.llmCalls);
            if (result.isSolution) mode.solved += 1;
          } else {
            const run = await agentInProcess(env, input);
            mode.calls.push(run.state.counters.llmCalls);
            if (run.outcome.stop.kind === 'solved') mode.solved += 1;
          }
          mode.wallMs.push(performance.now() - t0);
        }
      }
    });
    env.model.clearFaults();
    const baseline = spread(results[0]!.wallMs, 0).median;
    const rows: Row[] = results.map((m) => {
      const w = spread(m.wallMs, 0);
      return {
        search: m.name,
        'wall ms': w.text,
        'vs sequential in process': Number((w.median / baseline).toFixed(2)),
        'model calls': spread(m.calls, 0).text,
        solved: `${m.solved}/${seeds.length}`,
      };
    });
    return {
      tables: [{ title: `${this.title}; median (min–max) over ${seeds.length} seeds`, rows }],
      data: { latencyMs: LATENCY_MS, seeds, results },
      notes: [
        'Parallel rounds apply their results in selection order, so each row is reproducible from its seed; parallel rows explore differently from sequential ones (virtual loss), hence different calls and solves.',
      ],
    };
  },
};
