import { createGroveActivities } from '../../activities/grove-activities';
import { inProcessAgentPort } from '../../activities/in-process/ports';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { AgentInputSchema, type AgentInput } from '../../core/agents/agent-options';
import { runSearch } from '../../core/agents/run-search';
import { SearchContext } from '../../core/agents/search-context';
import { SearchState } from '../../core/agents/search-state';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import { exampleTools } from '../../examples/tools';
import { inProcessOpenAI } from '../../model-server';
import { startWorkerProcess } from '../../workers/worker-process';
import { benchQueue, workerProcessEnv, type BenchEnv } from '../lib/bench-env';
import { percentile, spread, type Benchmark, type Row } from '../lib/benchmark';
import { benchEvaluators, benchPolicies } from '../lib/bench-models';
import { COLOR_GAME } from './overhead';

/** A search that only grows: 8 distinct tool calls per expansion, scored by a hash (no model evaluation). */
const GROWTH = (expansions: number): AgentInput => ({
  resultTree: 'none',
  algorithm: 'mcts',
  prompt: 'Explore.',
  tools: ['multiply'],
  toolChoice: 'required',
  model: 'explorer',
  evaluator: { name: 'hash-score' },
  bFactor: 8,
  maxDepth: 6,
  maxRollouts: 1_000_000,
  reflection: false,
  budget: { maxCalls: expansions },
});

/**
 * Benchmark 4: (a) one search grown to 10,000 nodes through continue-as-new — the workflow's
 * own decision time per step as the tree grows (measured in process, with instant activities)
 * and the state each handover carries; (b) many concurrent airetry runs on one dev server with
 * two worker processes.
 */
export const scale: Benchmark = {
  name: 'scale',
  title: 'Scale',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const nodes = env.quick ? 2_000 : 10_000;
    const expansions = Math.ceil((nodes - 1) / 8);
    const growth = await growInProcess(GROWTH(expansions));
    const durable = await growDurably(env, GROWTH(expansions));
    const concurrent = await concurrentRuns(env, env.quick ? 100 : 500);
    return {
      tables: [
        { title: `(a) Decision time per search step as the tree grows (in process, instant activities; ${growth.steps} steps)`, rows: growth.rows },
        { title: '(a) The same search as a durable workflow', rows: [durable.row] },
        { title: '(b) Concurrent airetry runs (color game), one dev server, two worker processes', rows: [concurrent.row] },
      ],
      data: { growth, durable, concurrent },
      notes: [
        'Step time covers selection (UCT descent), expansion bookkeeping, backpropagation and the in-process activity calls (which are instant here), so it bounds the workflow-side CPU per step.',
        'Handover bytes = the continue-as-new input (the tree as refs and stats, no messages).',
      ],
    };
  },
};

async function growInProcess(input: AgentInput) {
  const activities = createGroveActivities({
    llm: { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'explorer', timeoutMs: 1000, heartbeatIntervalMs: 1000, sendCallKey: true },
    store: new MemoryMessageStore(),
    client: inProcessOpenAI({ policies: benchPolicies }),
    tools: exampleTools,
    evaluators: benchEvaluators,
  });
  const port = inProcessAgentPort(activities);
  const options = AgentInputSchema.parse(input);
  const state = SearchState.create(promptConversation({ prompt: options.prompt, system: null }), await port.describeTools(options.tools), 0);
  const ctx = new SearchContext(state, options, port);
  const samples: { nodes: number; ms: number }[] = [];
  let last = performance.now();
  await runSearch(ctx, {
    beforeStep: async () => {
      const now = performance.now();
      if (state.counters.steps > 0) samples.push({ nodes: state.tree.size, ms: now - last });
      last = now;
      return 'continue';
    },
  });
  const bucket = 1000;
  const rows: Row[] = [];
  for (let from = 0; from < state.tree.size; from += bucket) {
    const inBucket = samples.filter((s) => s.nodes > from && s.nodes <= from + bucket).map((s) => s.ms);
    if (inBucket.length === 0) continue;
    const s = spread(inBucket, 2);
    rows.push({ nodes: `${from + 1}–${from + bucket}`, steps: inBucket.length, 'ms/step median': s.median, p95: Number(percentile(inBucket, 95).toFixed(2)), max: s.max });
  }
  return { rows, steps: samples.length, nodes: state.tree.size, stateBytes: JSON.stringify(state.toJSON()).length };
}

async function growDurably(env: BenchEnv, input: AgentInput) {
  const taskQueue = benchQueue('scale');
  const worker = await env.worker(taskQueue);
  const t0 = performance.now();
  const { result, handovers } = await worker.runUntil(async () => {
    const handle = await env.grove(taskQueue).start('agent', input);
    const result = await handle.result();
    const handovers: number[] = [];
    for await (const run of env.client.workflow.list({ query: `WorkflowId = "${handle.workflowId}"` })) {
      const history = await env.client.workflow.getHandle(handle.workflowId, run.runId).fetchHistory();
      const last = history.events?.[history.events.length - 1];
      const payloads = last?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads ?? [];
      if (payloads.length > 0) handovers.push(payloads.reduce((n, p) => n + (p.data?.length ?? 0), 0));
    }
    return { result, handovers: handovers.sort((a, b) => a - b) };
  });
  const seconds = (performance.now() - t0) / 1000;
  const nodes: number = result.nodes;
  return {
    row: {
      nodes,
      expansions: result.counters.expansions,
      activities: result.counters.llmCalls + result.counters.toolRuns + result.counters.evaluations + 2,
      handovers: result.counters.handovers,
      'handover KB (first–last)': handovers.length ? `${(handovers[0] / 1024).toFixed(0)}–${(handovers[handovers.length - 1] / 1024).toFixed(0)}` : '-',
      'bytes/node at last handover': handovers.length ? Math.round(handovers[handovers.length - 1] / nodes) : '-',
      'wall s': Number(seconds.toFixed(1)),
      'nodes/s': Number((nodes / seconds).toFixed(0)),
    },
    handoverBytes: handovers,
  };
}

async function concurrentRuns(env: BenchEnv, runs: number) {
  const taskQueue = benchQueue('concurrent');
  const workerEnv = workerProcessEnv(env, taskQueue, `${env.dir}/store`);
  const workers = [startWorkerProcess(workerEnv), startWorkerProcess(workerEnv)];
  await Promise.all(workers.map((w) => w.ready));
  const grove = env.grove(taskQueue);
  const latencies: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  try {
    await Promise.all(
      Array.from({ length: runs }, async (_, i) => {
        const start = performance.now();
        try {
          const result = await grove.run('airetry', { ...COLOR_GAME, seed: i });
          if (!result.success) failures++;
          latencies.push(performance.now() - start);
        } catch {
          failures++;
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    row: {
      runs,
      failures,
      'wall s': Number(seconds.toFixed(1)),
      'runs/s': Number((latencies.length / seconds).toFixed(1)),
      'p50 latency s': Number((percentile(latencies, 50) / 1000).toFixed(1)),
      'p95 latency s': Number((percentile(latencies, 95) / 1000).toFixed(1)),
    },
    latenciesMs: latencies,
  };
}
