import type { EvaluatorDefinition } from '../../activities/evaluators';
import type { AnyToolDefinition } from '../../activities/tools/define-tool';
import type { AgentInput } from '../../core/agents/agent-options';
import { multiplicationChecker } from '../../examples/evaluators/multiplication-checker';
import { exampleTools } from '../../examples/tools';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { agentInProcess } from '../lib/in-process-runs';
import { QUICKSTART_MCTS } from './overhead';

/** The example tools and evaluator with `fast` switched off: the same work, run as regular activities. */
const regularTools: AnyToolDefinition[] = exampleTools.map((t) => ({ ...t, fast: false }));
const regularEvaluators: EvaluatorDefinition[] = [{ ...multiplicationChecker, fast: false }];

const WORKLOADS: Array<{ name: string; input: AgentInput }> = [
  { name: 'MCTS, LLM judge', input: QUICKSTART_MCTS },
  { name: 'MCTS, custom evaluator', input: { ...QUICKSTART_MCTS, evaluator: { name: 'multiplication-checker' } } },
  {
    // Seed 1 of the parallel-search benchmark: a search that needs several rollouts.
    name: 'MCTS, noisy LLM judge, error-prone player, 60 calls',
    input: { ...QUICKSTART_MCTS, model: 'multiplier?p=0.4&guess=0.4&seed=1', evaluator: { name: 'llm', model: 'noisy-judge?seed=1' }, budget: { maxCalls: 60 } },
  },
];
const PARALLELISM = 3;

/**
 * Side by side, by step kind: the same MCTS search in process and durable — with regular
 * activities only, with the example tools and evaluator declared `fast` (local activities), and
 * fast with 3 rollouts in flight (parallel MCTS, against the same parallel search in process) —
 * with an LLM judge (evaluations are model calls) and with the custom `multiplication-checker`
 * (evaluations are not), at 0 and 200 ms model latency. What a local activity saves per
 * non-model step is the fast/regular difference; what Temporal adds per step is the durable wall
 * time minus the in-process one of the same search, over every step.
 */
export const stepKinds: Benchmark = {
  name: 'step-kinds',
  title: 'Side by side: in process vs durable (regular activities, fast steps as local activities, fast + 3 rollouts in flight), by step kind',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const reps = env.quick ? 3 : 7;
    const fastQ = benchQueue('steps-fast');
    const regularQ = benchQueue('steps-regular');
    const workers = [await env.worker(fastQ), await env.worker(regularQ, { tools: regularTools, evaluators: regularEvaluators })];
    const rows: Row[] = [];
    const kinds: Row[] = [];
    const data: Record<string, unknown>[] = [];
    await workers[0]!.runUntil(() =>
      workers[1]!.runUntil(async () => {
        for (const latency of [0, 200]) {
          env.model.clearFaults();
          if (latency > 0) env.model.addFault({ action: { kind: 'latency', ms: latency }, times: 0 });
          for (const workload of WORKLOADS) {
            const runs = {
              local: [] as number[],
              localParallel: [] as number[],
              regular: [] as number[],
              fast: [] as number[],
              fastParallel: [] as number[],
            };
            const perKind: Record<string, number[]> = {};
            const steps = { sequential: { model: 0, nonModel: 0 }, parallel: { model: 0, nonModel: 0 } };
            const parallelInput: AgentInput = { ...workload.input, parallelism: PARALLELISM };
            const llmJudge = workload.input.evaluator?.name === 'llm';
            for (let rep = 0; rep < reps; rep++) {
              for (const [key, input] of [['local', workload.input], ['localParallel', parallelInput]] as const) {
                const t0 = performance.now();
                const { state } = await agentInProcess(env, input);
                runs[key].push(performance.now() - t0);
                const c = state.counters;
                steps[key === 'local' ? 'sequential' : 'parallel'] = { model: c.llmCalls, nonModel: c.toolRuns + (llmJudge ? 0 : c.evaluations) };
              }
              for (const [key, queue, input] of [['fast', fastQ, workload.input], ['regular', regularQ, workload.input], ['fastParallel', fastQ, parallelInput]] as const) {
                const t0 = performance.now();
                const handle = await env.grove(queue).start('agent', input);
                await handle.result();
                runs[key].push(performance.now() - t0);
                if (key !== 'regular') continue;
                const events = (await handle.fetchHistory()).events ?? [];
                const scheduledAt = new Map<string, { type: string; at: number }>();
                for (const e of events) {
                  const at = Number(e.eventTime?.seconds ?? 0) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
                  const sched = e.activityTaskScheduledEventAttributes;
                  if (sched) scheduledAt.set(String(e.eventId), { type: sched.activityType?.name ?? '?', at });
                  const done = e.activityTaskCompletedEventAttributes;
                  const from = done && scheduledAt.get(String(done.scheduledEventId));
                  if (from) (perKind[from.type] ??= []).push(at - from.at);
                }
              }
            }
            const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, spread(v, 0)])) as Record<keyof typeof runs, ReturnType<typeof spread>>;
            const saved = steps.sequential.nonModel > 0 ? (m.regular.median - m.fast.median) / steps.sequential.nonModel : 0;
            const added = (ms: number, base: number, n: { model: number; nonModel: number }) => {
              const all = n.model + n.nonModel;
              return all > 0 ? ((ms - base) / all).toFixed(1) : '-';
            };
            const row = (run: string, stat: ReturnType<typeof spread>, n: { model: number; nonModel: number }, addedMs: string, note = '') => ({
              'latency ms': latency,
              search: workload.name,
              run,
              'wall ms': stat.text,
              'vs in process, sequential': (stat.median / m.local.median).toFixed(2),
              'model calls': n.model,
              'other steps': n.nonModel,
              'added ms per step': addedMs,
              note,
            });
            rows.push(
              row('in process (no Temporal)', m.local, steps.sequential, '-'),
              row(`in process, parallelism ${PARALLELISM}`, m.localParallel, steps.parallel, '-'),
              row('durable, regular activities', m.regular, steps.sequential, added(m.regular.median, m.local.median, steps.sequential)),
              row('durable, fast steps as local activities', m.fast, steps.sequential, added(m.fast.median, m.local.median, steps.sequential), `${saved.toFixed(1)} ms saved per other step`),
              row(`durable, fast steps, parallelism ${PARALLELISM}`, m.fastParallel, steps.parallel, added(m.fastParallel.median, m.localParallel.median, steps.parallel), 'added vs in process with the same parallelism'),
            );
            for (const [kind, ms] of Object.entries(perKind)) {
              kinds.push({ 'latency ms': latency, search: workload.name, 'step kind (regular activity)': kind, 'scheduled → completed ms': spread(ms, 0).text, n: ms.length });
            }
            data.push({ latency, workload: workload.name, reps, wallMs: runs, steps, savedMsPerOtherStep: saved, perKindMs: perKind });
          }
        }
      }),
    );
    env.model.clearFaults();
    return {
      tables: [
        { title: `${this.title}; median (min–max) of ${reps}`, rows },
        { title: 'Regular activities in the durable searches without fast steps: time from scheduling to completion in history, all runs', rows: kinds },
      ],
      data: { runs: data },
      notes: [
        'Other steps: tool runs, and evaluations when the evaluator is the custom one (with the LLM judge an evaluation is a model call and always a regular activity).',
        'Added ms per step: (durable wall − in-process wall of the same search) / (model calls + other steps), medians; several steps of one expansion run at once, so this is wall time added, not time per activity.',
        `Parallel rows keep ${PARALLELISM} rollouts in flight (virtual loss): they explore differently from the sequential search, so their calls differ; the same seed gives the same parallel tree durably and in process.`,
        'At 200 ms the other steps run beside model calls of other candidates, so what a local activity saves is mostly hidden by the model calls on the critical path.',
      ],
    };
  },
};
