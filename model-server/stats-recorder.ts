/**
 * Request counters. WHY call keys: grove sends `x-grove-call-key: <workflowId>/<ledger key>` (the same
 * for every attempt of a call and every run that re-makes it: a retry, a reset, a resume);
 * counting requests whose key had ALREADY completed proves (or disproves) that a durable
 * search never pays twice for an LLM call that finished, even across worker crashes.
 */
import type { OutcomeCounters, RequestLogEntry, RequestOutcome, ServerStats } from './types';

export const REQUEST_LOG_CAP = 10_000;
const TEXT_CAP = 500;

function emptyCounters(): OutcomeCounters {
  return { received: 0, completed: 0, failed: 0, aborted: 0, inFlight: 0, peakInFlight: 0 };
}

/** One request being served; `finish` records its outcome exactly once. */
export interface RequestTicket {
  /** 0-based index of this request among those to the same model key (since start/reset). */
  readonly callIndex: number;
  /** `streamed`: the answer was sent as server-sent chunks (logged as such). */
  finish(status: number, outcome: RequestOutcome, streamed?: boolean): void;
}

export class StatsRecorder {
  private generation = 0;
  private total = emptyCounters();
  private byModel = new Map<string, OutcomeCounters>();
  private seenKeys = new Set<string>();
  private completedKeys = new Set<string>();
  private repeated = new Set<string>();
  private repeatedCount = 0;
  private log: RequestLogEntry[] = [];

  /**
   * Counts a received request.
   *
   * @example
   * const t = stats.begin('echo', { lastUserText: 'hi', n: 1 }); t.finish(200, 'completed');
   */
  begin(model: string, info: { callKey?: string; lastUserText: string; n: number; messages?: number }): RequestTicket {
    const generation = this.generation;
    let counters = this.byModel.get(model);
    if (!counters) this.byModel.set(model, (counters = emptyCounters()));
    const callIndex = counters.received;
    for (const c of [this.total, counters]) {
      c.received++;
      c.inFlight++;
      c.peakInFlight = Math.max(c.peakInFlight, c.inFlight);
    }
    const key = info.callKey;
    if (key !== undefined) {
      this.seenKeys.add(key);
      if (this.completedKeys.has(key)) {
        this.repeatedCount++;
        this.repeated.add(key);
      }
    }
    let done = false;
    return {
      callIndex,
      finish: (status, outcome, streamed) => {
        if (done || generation !== this.generation) return;
        done = true;
        for (const c of [this.total, counters!]) {
          c.inFlight--;
          c[outcome]++;
        }
        if (outcome === 'completed' && key !== undefined) this.completedKeys.add(key);
        this.log.push({
          model,
          ...(key !== undefined ? { callKey: key } : {}),
          status,
          outcome,
          lastUserText: info.lastUserText.slice(0, TEXT_CAP),
          n: info.n,
          messages: info.messages ?? 0,
          ...(streamed ? { streamed: true } : {}),
        });
        if (this.log.length > REQUEST_LOG_CAP) this.log.splice(0, this.log.length - REQUEST_LOG_CAP);
      },
    };
  }

  /** A deep copy of the counters. */
  snapshot(): Omit<ServerStats, 'held'> {
    const byModel: Record<string, OutcomeCounters> = {};
    for (const [k, v] of this.byModel) byModel[k] = { ...v };
    return {
      total: { ...this.total },
      byModel,
      callKeys: {
        distinct: this.seenKeys.size,
        repeatedAfterCompletion: this.repeatedCount,
        repeated: [...this.repeated],
      },
      requests: this.log.map((e) => ({ ...e })),
    };
  }

  /** Forgets everything; requests in flight at reset time are no longer counted. */
  reset(): void {
    this.generation++;
    this.total = emptyCounters();
    this.byModel.clear();
    this.seenKeys.clear();
    this.completedKeys.clear();
    this.repeated.clear();
    this.repeatedCount = 0;
    this.log = [];
  }
}
