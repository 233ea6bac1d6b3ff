import type { AgentInput } from '../../core/agents/agent-options';
import { replayAll, replayHistory } from '../../client/replay/replay';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import type { Benchmark, Row } from '../lib/benchmark';

/**
 * Benchmark: what `grove resume` pays after a failure compared with running the search again, and
 * how long `grove replay` takes per history. An MCTS search that never solves (a random agent, a
 * judge that finds nothing right) runs to its call budget; a copy of it gets a provider 400 after
 * K paid calls, is resumed, and must end with the same tree having paid each call once.
 */
export const runOps: Benchmark = {
  name: 'run-ops',
  title: 'Resume after a failure vs a full rerun; replay time per history',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const budgets = env.quick ? [60] : [60, 200];
    const taskQueue = benchQueue('run-ops');
    const worker = await env.worker(taskQueue);
    const grove = env.grove(taskQueue);
    const completed = (workflowId: string) =>
      env.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`) && r.outcome === 'completed').length;
    const resumeRows: Row[] = [];
    const replayRows: Row[] = [];
    const data: Record<string, unknown>[] = [];
    await worker.runUntil(async () => {
      for (const maxCalls of budgets) {
        const input: AgentInput = {
          algorithm: 'mcts',
          prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
          tools: ['multiply', 'final_answer'],
          model: 'explorer',
          evaluator: { name: 'llm', model: 'multiplier-judge' },
          maxDepth: 6,
          maxRollouts: 10_000,
          reflection: false,
          budget: { maxCalls },
        };
        const baseline = await grove.run('agent', input, { workflowId: `${taskQueue}-${maxCalls}-baseline` });
        const full = completed(baseline.workflowId);
        for (const fraction of [0.2, 0.5, 0.9]) {
          const failAt = Math.max(11, Math.round(full * fraction));
          const workflowId = `${taskQueue}-${maxCalls}-fail${failAt}`;
          env.model.addFault({ match: { callKeyPrefix: `${workflowId}/`, every: failAt }, action: { kind: 'status', status: 400, message: 'injected' }, times: 1 });
          const handle = await grove.start('agent', input, { workflowId });
          await handle.result().catch(() => undefined);
          const before = completed(workflowId);
          const t0 = Date.now();
          const resumed = await grove.resume(workflowId);
          const result = (await grove.handle(workflowId).result()) as typeof baseline;
          const resumeMs = Date.now() - t0;
          const after = completed(workflowId) - before;
          const paidTwice = env.model.stats().callKeys.repeated.filter((k) => k.startsWith(`${workflowId}/`)).length;
          const sameTree = JSON.stringify(result.tree) === JSON.stringify(baseline.tree);
          resumeRows.push({
            'budget (calls)': maxCalls,
            'failed at call': failAt,
            'paid before': before,
            'paid on resume': after,
            'full rerun pays': full,
            'paid twice': paidTwice,
            'same tree': sameTree ? 'yes' : 'NO',
            'kept in history': resumed.plan.keptResults,
            'resume to end ms': resumeMs,
          });
          data.push({ maxCalls, failAt, before, after, full, paidTwice, sameTree, keptResults: resumed.plan.keptResults, reissued: resumed.plan.reissuedResults, resumeMs });
        }
        const history = await grove.handle(baseline.workflowId).fetchHistory();
        const report = await replayHistory(history, { workflowBundle: { codePath: env.bundlePath }, workflowId: baseline.workflowId });
        replayRows.push({ run: `MCTS, ${full} calls`, events: report.events, 'workflow tasks': report.workflowTasks, 'replay ms': report.ms, ok: report.ok ? 'yes' : 'NO' });
      }
    });
    const t0 = Date.now();
    const all = await replayAll(env.client, { workflowBundle: { codePath: env.bundlePath }, query: `TaskQueue = "${taskQueue}"` });
    const allMs = Date.now() - t0;
    replayRows.push({ run: `replayAll: ${all.length} closed runs`, events: all.reduce((s, r) => s + r.events, 0), 'workflow tasks': all.reduce((s, r) => s + r.workflowTasks, 0), 'replay ms': allMs, ok: all.every((r) => r.ok) ? 'yes' : 'NO' });
    return {
      tables: [
        { title: 'grove resume after a provider 400 vs a full rerun (MCTS, scripted models)', rows: resumeRows },
        { title: 'grove replay: time per history (worker bundle, no server)', rows: replayRows },
      ],
      data: { resume: data, replay: replayRows },
      notes: [
        '"paid on resume" is what the resumed run paid: the failed call and the calls after it; "paid twice" counts calls whose ledger key had completed before (0 = none).',
        'A full rerun (a new run, or a reset to the first workflow task without the message store) pays every call again.',
        'replayAll replays every closed run of the benchmark (baselines, failed runs and their resumed runs) from the server, one history after another.',
      ],
    };
  },
};
