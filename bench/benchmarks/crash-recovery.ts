import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInput } from '../../core/agents/agent-options';
import { seededRandom } from '../../core/random';
import { startWorkerProcess, until } from '../../workers/worker-process';
import { benchQueue, workerProcessEnv, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark } from '../lib/benchmark';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED */
const STARTED = 2;

/** An MCTS search that cannot finish (it needs 6 steps, maxDepth is 4), so it spends its whole call budget. */
const SEARCH = (maxCalls: number): AgentInput => ({
  algorithm: 'mcts',
  prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
  tools: ['multiply', 'final_answer'],
  model: 'multiplier?p=0.5&guess=0.3',
  evaluator: { name: 'llm', model: 'multiplier-judge' },
  maxDepth: 4,
  maxRollouts: 1000,
  budget: { maxCalls },
  llm: { heartbeatTimeoutMs: 2000 },
});

/**
 * Benchmark 3: a search of ~200 model calls whose worker process is SIGKILLed at 10 random
 * moments and restarted each time, against the same search uninterrupted.
 */
export const crashRecovery: Benchmark = {
  name: 'crash-recovery',
  title: 'Crash recovery: worker SIGKILLed at random points during a search',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const kills = env.quick ? 3 : 10;
    const spec = SEARCH(env.quick ? 80 : 200);
    const storeDir = mkdtempSync(join(tmpdir(), 'grove-bench-store-'));
    const log = (workflowId: string) => env.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`));
    try {
      // 50 ms per model call, so kills land while calls are in flight, as they would in production.
      env.model.addFault({ action: { kind: 'latency', ms: 50 }, times: 0 });
      const refQueue = benchQueue('crash-ref');
      const refWorker = await env.worker(refQueue);
      const reference = await refWorker.runUntil(env.grove(refQueue).run('agent', spec));
      const refCompleted = log(reference.workflowId).filter((r) => r.outcome === 'completed').length;

      const taskQueue = benchQueue('crash');
      const workerEnv = workerProcessEnv(env, taskQueue, storeDir);
      const rng = seededRandom(7);
      let worker = startWorkerProcess(workerEnv);
      await worker.ready;
      const t0 = Date.now();
      const handle = await env.grove(taskQueue).start('agent', spec);
      const recoveries: number[] = [];
      let inFlightAtKills = 0;
      for (let k = 0; k < kills; k++) {
        await new Promise((r) => setTimeout(r, 300 + rng.random() * 1200));
        const pending = (await handle.describe()).raw.pendingActivities ?? [];
        inFlightAtKills += pending.filter((a) => Number(a.state) === STARTED).length;
        await worker.kill('SIGKILL');
        const completedBefore = log(handle.workflowId).filter((r) => r.outcome === 'completed').length;
        const restartedAt = Date.now();
        worker = startWorkerProcess(workerEnv);
        await worker.ready;
        await until(() => log(handle.workflowId).filter((r) => r.outcome === 'completed').length > completedBefore, 120_000, 'the next completed call');
        recoveries.push(Date.now() - restartedAt);
      }
      const result = await handle.result();
      const wallMs = Date.now() - t0;
      await worker.kill('SIGTERM');
      env.model.clearFaults();

      const requests = log(handle.workflowId);
      const completed = requests.filter((r) => r.outcome === 'completed').length;
      const keys = requests.filter((r) => r.outcome === 'completed').map((r) => r.callKey);
      const repeated = keys.length - new Set(keys).size;
      const recovery = spread(recoveries, 0);
      const row = {
        kills,
        'calls (uninterrupted)': refCompleted,
        'calls received (killed)': requests.length,
        'completed (killed)': completed,
        'aborted at kills': requests.filter((r) => r.outcome === 'aborted').length,
        'completed calls repeated': repeated,
        'same tree': JSON.stringify(result.tree) === JSON.stringify(reference.tree) ? 'yes' : 'NO',
        'same answer': result.answer === reference.answer ? 'yes' : 'NO',
        'restart → next completed call ms': recovery.text,
        'wall s': Number((wallMs / 1000).toFixed(1)),
      };
      return {
        tables: [{ title: this.title, rows: [row] }],
        data: { ...row, recoveriesMs: recoveries, inFlightAtKills, spec },
        notes: [
          `Extra calls received = ${requests.length - refCompleted}; activities started but not yet reported at the kills = ${inFlightAtKills} (the most that can be re-sent).`,
          'A "completed call repeated" is one the model server had answered when the worker died before recording the answer (workers record every answer in the store under the activity\'s call key before reporting it, so a retry after that point is served from the store). Those calls are paid twice; activities are at-least-once.',
          'Recovery time = worker process start (~2 s: Node + tsx + bundle load) + the heartbeat timeout (2 s) for the call that was in flight.',
        ],
      };
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  },
};
