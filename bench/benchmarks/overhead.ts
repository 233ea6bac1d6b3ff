import type { AgentInput } from '../../core/agents/agent-options';
import type { AiretryInput } from '../../core/airetry/airetry-input';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { agentInProcess, airetryInProcess } from '../lib/in-process-runs';

export const COLOR_GAME: AiretryInput = {
  prompt: 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
  model: 'color-guesser',
  config: { nSamples: 2 },
  apiKwargs: { n: 2 },
  seed: 1,
  checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }],
};

export const QUICKSTART_MCTS: AgentInput = {
  algorithm: 'mcts',
  prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
  tools: ['multiply', 'final_answer'],
  model: 'multiplier?p=0.2&guess=0.3',
  evaluator: { name: 'llm', model: 'multiplier-judge' },
  maxDepth: 8,
};

/**
 * Benchmark 1: what durability costs. The same airetry run and the same MCTS search (same
 * seed, so the same decisions) driven in this process with the activities as plain functions,
 * and as Temporal workflows on the dev server — with scripted model latency 0 and 200 ms.
 */
export const overhead: Benchmark = {
  name: 'overhead',
  title: 'Orchestration overhead: in-process vs durable on each message store (same search, same seed)',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const reps = env.quick ? 3 : 5;
    const latencies = [0, 200];
    const stores = ['folder', 'postgres'] as const;
    const rows: Row[] = [];
    const data: Record<string, unknown>[] = [];
    const queues = Object.fromEntries(stores.map((s) => [s, benchQueue(`overhead-${s}`)])) as Record<(typeof stores)[number], string>;
    const workers = await Promise.all(stores.map((s) => env.worker(queues[s], { store: s })));
    const runAll = <T>(fn: () => Promise<T>) => workers.reduce<() => Promise<T>>((inner, w) => () => w.runUntil(inner), fn)();
    await runAll(async () => {
      for (const latency of latencies) {
        env.model.clearFaults();
        if (latency > 0) env.model.addFault({ action: { kind: 'latency', ms: latency }, times: 0 });
        for (const workload of ['airetry', 'mcts'] as const) {
          const local: number[] = [];
          const durable: Record<string, number[]> = { folder: [], postgres: [] };
          let activities = 0;
          for (let rep = 0; rep < reps; rep++) {
            let t0 = performance.now();
            activities = workload === 'airetry' ? (await airetryInProcess(env, COLOR_GAME)).activities : (await agentInProcess(env, QUICKSTART_MCTS)).activities;
            local.push(performance.now() - t0);
            for (const store of stores) {
              t0 = performance.now();
              if (workload === 'airetry') await env.grove(queues[store]).run('airetry', COLOR_GAME);
              else await env.grove(queues[store]).run('agent', QUICKSTART_MCTS);
              durable[store].push(performance.now() - t0);
            }
          }
          const a = spread(local, 0);
          const row: Row = { workload: workload === 'airetry' ? 'airetry color game' : 'MCTS quickstart', 'latency ms': latency, activities, 'in-process ms': a.text };
          const entry: Record<string, unknown> = { workload, latency, activities, inProcessMs: local };
          for (const store of stores) {
            const b = spread(durable[store], 0);
            const added = (b.median - a.median) / activities;
            row[`${store} ms`] = b.text;
            row[`${store} added ms/activity`] = Number(added.toFixed(1));
            entry[store] = { durableMs: durable[store], ratio: b.median / a.median, addedMsPerActivity: added };
          }
          rows.push(row);
          data.push(entry);
        }
      }
    });
    env.model.clearFaults();
    return {
      tables: [{ title: `${this.title}; median (min–max) of ${reps}`, rows }],
      data: { reps, runs: data },
      notes: [
        'Durable = started with the client, every model call / tool run / evaluation an activity on the local dev server (SQLite in memory, 2 cores shared with the worker, the model server and PostgreSQL).',
        'folder = the single-host store (fsynced files); postgres = the networked store on a local PostgreSQL server (every write one statement, reads cached in memory).',
        'Activities counts the in-process function calls; the durable run schedules the same activities.',
      ],
    };
  },
};
