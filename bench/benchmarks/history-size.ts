import { benchQueue, historyOf, type BenchEnv } from '../lib/bench-env';
import type { Benchmark, Row } from '../lib/benchmark';

/**
 * Benchmark 2: bytes of workflow history per model call and in total, as a conversation grows
 * (an airetry chain of `depth` retries, 1 kB answers), for grove's reference-passing design and
 * for the naive design that sends the whole conversation into every model activity.
 */
export const historySize: Benchmark = {
  name: 'history-size',
  title: 'History size: grove (references) vs naive (whole conversation per activity)',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const depths = env.quick ? [5, 10, 20] : [5, 10, 20, 30, 40];
    const rows: Row[] = [];
    const data: { depth: number; naive: boolean; calls: number; conversationChars: number; bytes: number; events: number; bytesPerCall: number }[] = [];
    const taskQueue = benchQueue('history');
    const pgQueue = benchQueue('history-pg');
    const worker = await env.worker(taskQueue, { store: 'folder' });
    const pgWorker = await env.worker(pgQueue, { store: 'postgres' });
    await pgWorker.runUntil(() => worker.runUntil(async () => {
      for (const depth of depths) {
        const row: Row = { depth, calls: depth + 1 };
        for (const naive of [false, true]) {
          const workflowId = `${taskQueue}-${depth}-${naive ? 'naive' : 'grove'}`;
          const result = await env.client.workflow.execute('historyChain', { taskQueue, workflowId, args: [{ depth, naive, answerChars: 1000 }] });
          const history = await historyOf(env.client, workflowId);
          const perCall = Math.round(history.bytes / result.calls);
          const key = naive ? 'naive' : 'grove';
          row[`${key} KB`] = Number((history.bytes / 1024).toFixed(1));
          row[`${key} B/call`] = perCall;
          if (naive) row['naive/grove'] = Number((history.bytes / ((row['grove KB'] as number) * 1024)).toFixed(1));
          data.push({ depth, naive, calls: result.calls, conversationChars: result.conversationChars, ...history, bytesPerCall: perCall });
        }
        // The same grove chain on a worker whose store is PostgreSQL: references either way, so the same bytes.
        const pgId = `${pgQueue}-${depth}`;
        const pgResult = await env.client.workflow.execute('historyChain', { taskQueue: pgQueue, workflowId: pgId, args: [{ depth, naive: false, answerChars: 1000 }] });
        const pg = await historyOf(env.client, pgId);
        row['grove on postgres B/call'] = Math.round(pg.bytes / pgResult.calls);
        data.push({ depth, naive: false, store: 'postgres', calls: pgResult.calls, conversationChars: pgResult.conversationChars, ...pg, bytesPerCall: Math.round(pg.bytes / pgResult.calls) } as never);
        rows.push(row);
      }
    }));
    // The marginal cost of one more call, from the deepest two chains: flat for grove, growing for naive.
    const marginal = (naive: boolean) => {
      const pick = (d: number) => data.find((x) => x.depth === d && x.naive === naive && !('store' in x))!;
      const [a, b] = [pick(depths[depths.length - 2]), pick(depths[depths.length - 1])];
      return Math.round((b.bytes - a.bytes) / (b.calls - a.calls));
    };
    return {
      tables: [{ title: this.title, rows }],
      data: { depths, runs: data, marginalBytesPerCall: { grove: marginal(false), naive: marginal(true) } },
      notes: [
        `Marginal history per extra call at the deepest chains: grove ${marginal(false)} B, naive ${marginal(true)} B.`,
        'Each call adds a ~1 kB answer and a feedback message. grove sends a 32-hex path ref plus the one new message; the naive design resends everything.',
        'grove runs on a folder store; "grove on postgres" is the same chain on a worker whose store is PostgreSQL: history does not depend on the backend.',
      ],
    };
  },
};
