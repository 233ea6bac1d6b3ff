import { GroveError } from '../errors';

/** The outcome of one intervention: its result, or why it could not apply. */
export type InterventionOutcome<R> = { ok: true; value: R } | { ok: false; reason: string };

export interface QueuedIntervention<Q, R> {
  request: Q;
  /** Set once the run applied (or refused) it. */
  outcome?: InterventionOutcome<R>;
}

/**
 * What people asked a running search or retry loop to do (rewind, feedback), waiting for the
 * point where the algorithm can take it: between steps, never in the middle of one (a rewind
 * there would prune the node being expanded). The run drains the queue at that point; each
 * request gets its outcome, which the update that asked for it returns. A request that cannot
 * apply any more (its node was pruned meanwhile) gets the reason instead of failing the run.
 *
 * @example
 * const item = queue.push({ nodeId: 4, feedback: 'Use the tool.' });
 * // ... between two steps:
 * await queue.drain((request) => ctx.rewind(request));
 * item.outcome; // { ok: true, value: { resumeFrom: 4, abandoned: [7, 8] } }
 */
export class InterventionQueue<Q, R> {
  private readonly items: QueuedIntervention<Q, R>[] = [];

  push(request: Q): QueuedIntervention<Q, R> {
    const item: QueuedIntervention<Q, R> = { request };
    this.items.push(item);
    return item;
  }

  get size(): number {
    return this.items.length;
  }

  /** Applies every queued request in order. A grove error (an invalid node, a spent budget) becomes that request's refusal. */
  async drain(apply: (request: Q) => Promise<R>): Promise<void> {
    while (this.items.length > 0) {
      const item = this.items.shift()!;
      try {
        item.outcome = { ok: true, value: await apply(item.request) };
      } catch (err) {
        if (!GroveError.isInstance(err)) throw err;
        item.outcome = { ok: false, reason: err.message };
      }
    }
  }

  /** Refuses whatever is still queued (the run ended before it could apply). */
  refuseAll(reason: string): void {
    for (const item of this.items.splice(0)) item.outcome = { ok: false, reason };
  }
}
