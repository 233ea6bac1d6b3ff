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
];

/** Steps that are not model calls: tool runs, and evaluations by a custom evaluator. */
const NON_MODEL = new Set(['groveRunTool', 'groveEvaluate']);

/**
 * What a step costs by kind. The same MCTS search (same seed, same decisions), in process and
 * durable — once with the example tools and evaluator declared `fast` (local activities), once
 * without (regular activities on the task queue) — with an LLM judge (evaluations are model
 * calls) and with the custom `multiplication-checker` (evaluations are not), at 0 and 200 ms
 * model latency. What a local activity saves per non-model step is the difference; what
 * Temporal adds per step is the durable wall time minus the in-process one, over every step.
 */
export const stepKinds: Benchmark = {
  name: 'step-kinds',
  title: 'Cost per step kind: tools and custom evaluators as local activities (fast) vs regular activities (the same MCTS search)',
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
            const local: number[] = [];
            const wall: Record<'fast' | 'regular', number[]> = { fast: [], regular: [] };
            const perKind: Record<string, number[]> = {};
            let steps = { model: 0, nonModel: 0, local: 0 };
            for (let rep = 0; rep < reps; rep++) {
              let t0 = performance.now();
              await agentInProcess(env, workload.input);
              local.push(performance.now() - t0);
              for (const [mode, queue] of [['fast', fastQ], ['regular', regularQ]] as const) {
                t0 = performance.now();
                const handle = await env.grove(queue).start('agent', workload.input);
                await handle.result();
                wall[mode].push(performance.now() - t0);
                const events = (await handle.fetchHistory()).events ?? [];
                if (mode === 'fast') {
                  steps.local = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
                  continue;
                }
                const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name ?? '?'] : []));
                const llmJudge = workload.input.evaluator?.name === 'llm';
                const nonModel = scheduled.filter((t) => NON_MODEL.has(t) && !(llmJudge && t === 'groveEvaluate')).length;
                steps = { ...steps, model: scheduled.filter((t) => t === 'llmChat' || (llmJudge && t === 'groveEvaluate')).length, nonModel };
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
            const a = spread(local, 0);
            const f = spread(wall.fast, 0);
            const r = spread(wall.regular, 0);
            const all = steps.model + steps.nonModel;
            const saved = steps.nonModel > 0 ? (r.median - f.median) / steps.nonModel : 0;
            const added = (ms: number) => (all > 0 ? ((ms - a.median) / all).toFixed(1) : '-');
            const row = (run: string, text: string, note: string, addedMs: string) => ({
              'latency ms': latency,
              search: workload.name,
              run,
              'wall ms': text,
              'model calls': steps.model,
              'other steps': steps.nonModel,
              'added ms per step': addedMs,
              note,
            });
            rows.push(
              row('in process (no Temporal)', a.text, '', '-'),
              row('durable, regular activities', r.text, '', added(r.median)),
              row('durable, fast steps as local activities', f.text, `${saved.toFixed(1)} ms saved per other step`, added(f.median)),
            );
            for (const [kind, ms] of Object.entries(perKind)) {
              kinds.push({ 'latency ms': latency, search: workload.name, 'step kind (regular activity)': kind, 'scheduled → completed ms': spread(ms, 0).text, n: ms.length });
            }
            data.push({ latency, workload: workload.name, reps, inProcessMs: local, wallMs: wall, steps, savedMsPerOtherStep: saved, perKindMs: perKind });
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
        'Added ms per step: (durable wall − in-process wall) / (model calls + other steps), medians; several steps of one expansion run at once, so this is wall time added, not time per activity.',
        'At 200 ms the other steps run beside model calls of other candidates, so what a local activity saves is mostly hidden by the model calls on the critical path.',
      ],
    };
  },
};
