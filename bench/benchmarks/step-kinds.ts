import type { AnyToolDefinition } from '../../activities/tools/define-tool';
import { exampleTools } from '../../examples/tools';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { agentInProcess } from '../lib/in-process-runs';
import { QUICKSTART_MCTS } from './overhead';

/** The example tools with `fast` switched off: the same work, run as regular activities. */
const regularTools: AnyToolDefinition[] = exampleTools.map((t) => ({ ...t, fast: false }));

/**
 * What a step costs by kind. The same MCTS search (same seed, same decisions), durable, once with
 * the example tools declared `fast` (local activities) and once without (regular activities on
 * the task queue); the difference per
 * tool run is what a local activity saves — at 0 ms and at 200 ms model latency. Model calls and
 * evaluations: time from scheduling to completion in history.
 */
export const stepKinds: Benchmark = {
  name: 'step-kinds',
  title: 'Cost per step kind: tools as local activities (fast) vs regular activities (the same MCTS search)',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const reps = env.quick ? 3 : 7;
    const fastQ = benchQueue('steps-fast');
    const regularQ = benchQueue('steps-regular');
    const workers = [await env.worker(fastQ), await env.worker(regularQ, { tools: regularTools })];
    const rows: Row[] = [];
    const kinds: Row[] = [];
    const data: Record<string, unknown>[] = [];
    await workers[0]!.runUntil(() =>
      workers[1]!.runUntil(async () => {
        for (const latency of [0, 200]) {
          env.model.clearFaults();
          if (latency > 0) env.model.addFault({ action: { kind: 'latency', ms: latency }, times: 0 });
          const local: number[] = [];
          const wall: Record<'fast' | 'regular', number[]> = { fast: [], regular: [] };
          const perKind: Record<string, number[]> = {};
          const toolRuns: Record<'fast' | 'regular', number> = { fast: 0, regular: 0 };
          for (let rep = 0; rep < reps; rep++) {
            let t0 = performance.now();
            await agentInProcess(env, QUICKSTART_MCTS);
            local.push(performance.now() - t0);
            for (const [mode, queue] of [['fast', fastQ], ['regular', regularQ]] as const) {
              t0 = performance.now();
              const handle = await env.grove(queue).start('agent', QUICKSTART_MCTS);
              await handle.result();
              wall[mode].push(performance.now() - t0);
              const events = (await handle.fetchHistory()).events ?? [];
              if (mode === 'fast') toolRuns.fast = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
              if (mode === 'fast') continue;
              toolRuns.regular = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'groveRunTool').length;
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
          const saved = toolRuns.regular > 0 ? (r.median - f.median) / toolRuns.regular : 0;
          rows.push(
            { 'latency ms': latency, run: 'in process (no Temporal)', 'wall ms': a.text, 'tool runs': toolRuns.regular, note: '' },
            { 'latency ms': latency, run: 'durable, tools regular activities', 'wall ms': r.text, 'tool runs': toolRuns.regular, note: '' },
            { 'latency ms': latency, run: 'durable, tools fast (local activities)', 'wall ms': f.text, 'tool runs': toolRuns.fast, note: `${saved.toFixed(1)} ms saved per tool run` },
          );
          for (const [kind, ms] of Object.entries(perKind)) kinds.push({ 'latency ms': latency, 'step kind (regular activity)': kind, 'scheduled → completed ms': spread(ms, 0).text, n: ms.length });
          data.push({ latency, reps, inProcessMs: local, wallMs: wall, toolRuns, savedMsPerToolRun: saved, perKindMs: perKind });
        }
      }),
    );
    env.model.clearFaults();
    return {
      tables: [
        { title: `${this.title}; median (min–max) of ${reps}`, rows },
        { title: 'Regular activities in the durable search with regular tools: time from scheduling to completion in history, all runs', rows: kinds },
      ],
      data: { runs: data },
      notes: ['At 200 ms the tools run beside evaluations of other candidates, so what a local activity saves is mostly hidden by the model calls on the critical path.'],
    };
  },
};
