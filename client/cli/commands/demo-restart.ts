import type { WorkflowHandle } from '@temporalio/client';
import type { ModelServer, ServerStats } from '../../../model-server';
import { until } from '../../../workers/worker-process';

/** What the model server counted for one run: the calls it answered, and those it answered twice. */
export interface ModelSideCounts {
  /** Requests the model answered (each paid for). */
  answered: number;
  /** Requests cut off before the model answered (nothing paid). */
  unanswered: number;
  /** Calls asked again after the model had answered them: finished calls paid again. */
  repaid: number;
}

/** How a run went across the stop of its worker. */
export interface RestartReport {
  /** Model calls the first worker had finished when it was stopped (the model server's count, else grove's). */
  finishedBeforeStop: number;
  /** The model server's counts at the stop and at the end; absent for an endpoint grove does not run. */
  atStop?: ModelSideCounts;
  atEnd?: ModelSideCounts;
}

/**
 * Counts a run's requests at grove's own model server by their call keys (`<workflowId>/…`,
 * the same for every attempt of a call): answered, cut off unanswered, and asked again after
 * the model had answered — the last is what "paid twice" means.
 *
 * @example
 * modelSideCounts(server.stats(), 'code-fixer-demo-1a2b'); // { answered: 4, unanswered: 1, repaid: 0 }
 */
export function modelSideCounts(stats: Pick<ServerStats, 'requests' | 'callKeys'>, workflowId: string): ModelSideCounts {
  const mine = (key: string | undefined) => key !== undefined && key.startsWith(`${workflowId}/`);
  const requests = stats.requests.filter((r) => mine(r.callKey));
  return {
    answered: requests.filter((r) => r.outcome === 'completed').length,
    unanswered: requests.filter((r) => r.outcome === 'aborted').length,
    repaid: stats.callKeys.repeated.filter(mine).length,
  };
}

/**
 * Runs a workflow and, once its first worker has finished `afterCalls` model calls, stops that
 * worker mid-run and starts a new one, which rebuilds the run from its history and finishes it.
 * With grove's own model server the stop is placed by construction, not by timing: the run's
 * next request is held unanswered at the server, the worker is stopped with that call open (its
 * request is cut off, so the model never answers it), and the new worker asks for it again.
 * With another endpoint the worker is stopped when grove's own count reaches `afterCalls`. A
 * run that ends before its worker could be stopped has no report.
 *
 * @example
 * const { result, restart } = await runAcrossRestart({ start, workflowId, server, model: 'smollm2', afterCalls: 1, stopWorker, startWorker });
 */
export async function runAcrossRestart(opts: {
  start: () => Promise<WorkflowHandle>;
  workflowId: string;
  /** grove's own model server (its counts and its hold), when it answers the run. */
  server?: Pick<ModelServer, 'stats' | 'hold' | 'release'>;
  /** The model the run asks (what the server counts its requests under). */
  model: string;
  afterCalls: number;
  stopWorker: () => Promise<void>;
  startWorker: () => Promise<void>;
}): Promise<{ result: unknown; restart?: RestartReport }> {
  const { server, workflowId } = opts;
  if (server) {
    const before = server.stats().byModel[opts.model]?.received ?? 0;
    server.hold({ model: opts.model, callIndex: before + opts.afterCalls, callKeyPrefix: `${workflowId}/` });
  }
  let ended = false;
  const held = () => server!.stats().held.some((key) => key.startsWith(`${workflowId}/`));
  try {
    const handle = await opts.start();
    const result = handle.result().finally(() => (ended = true));
    result.catch(() => {}); // awaited below, where a failure surfaces
    // Without grove's model server: grove's own count of finished calls, from the run's live figures.
    let counted = 0;
    const due = server
      ? held
      : async () => (counted = (await handle.query<{ modelCalls?: number }>('progress').catch(() => undefined))?.modelCalls ?? counted) >= opts.afterCalls;
    await until(async () => ended || (await due()), 10 * 60_000, 'the run to reach its restart point');
    // A run held at the server cannot end; one that ended first needed fewer calls than the stop point.
    if (ended) return { result: await result };
    await opts.stopWorker();
    // The held request's client went away with the worker: the server counts it unanswered.
    if (server) await until(() => !held(), 30_000, 'the held request to be cut off');
    const atStop = server ? modelSideCounts(server.stats(), workflowId) : undefined;
    server?.release();
    await opts.startWorker();
    const finished = await result;
    return {
      result: finished,
      restart: {
        finishedBeforeStop: atStop?.answered ?? counted,
        ...(server ? { atStop, atEnd: modelSideCounts(server.stats(), workflowId) } : {}),
      },
    };
  } finally {
    server?.release();
  }
}
