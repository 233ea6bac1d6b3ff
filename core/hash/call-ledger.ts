import { contentRef, type Ref } from './refs';

/**
 * How a run's paid results are shared: `lineage` (the default) reuses them only in runs that
 * descend from the one that paid — a retry after a crash, a reset, a resume (same workflow id);
 * `shared` also serves them to any run that makes exactly the same request (a cache across runs,
 * for reproducible pipelines that do not want fresh samples).
 */
export type CallReuse = 'lineage' | 'shared';

/**
 * The ref of what a call *asks*: the activity kind and its input, minus what only concerns
 * storage (`writes`, the store entries an input carries until the store has them — the same
 * request may carry more or less of them), minus where it may run (`registry`, the fingerprint
 * of the workers that may serve it: a resumed run keeps its results whichever workers serve it
 * now) and minus the key itself. Two calls with the same
 * logical ref send the same request (same conversation by content address, model, parameters,
 * tool call, evaluator...).
 *
 * @example
 * logicalRef('llmChat', { conversation: { path: ref, writes: {...} }, model: 'm' }) === logicalRef('llmChat', { conversation: { path: ref }, model: 'm' })
 */
export function logicalRef(kind: string, input: unknown): Ref {
  const stripped = strip(input);
  if (stripped !== null && typeof stripped === 'object' && 'registry' in stripped) delete (stripped as { registry?: unknown }).registry;
  return contentRef({ kind, input: stripped });
}

function strip(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(strip);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'writes' || k === 'callKey') continue;
    out[k] = strip(v);
  }
  return out;
}

/**
 * Gives every paid call of a run (model call, tool run, evaluation) a key under which the worker
 * records its result: `g<generation>/<logical ref>/<occurrence>` — the k-th time this run asks
 * exactly this, in its continue-as-new generation. The workflow computes it deterministically,
 * so a run that re-executes the same decisions (a retry on another worker, a reset to any
 * earlier point, a resume) computes the same keys and gets the recorded results back instead of
 * paying again. The occurrence index keeps deliberate repeats apart: airetry may ask the same
 * question twice on purpose and must get two independent samples.
 *
 * A key can never return a wrong answer: it contains the hash of the complete request, so a
 * record is only ever served for an identical request, and the occurrence index means no two
 * calls of one run share a record. With `reuse: 'shared'` the key is `shared/<ref>/<k>` and
 * workers serve it across workflows.
 *
 * @example
 * const ledger = new CallLedger(state.counters.handovers);
 * const input = { conversation, model };
 * await activities.llmChat({ ...input, callKey: ledger.key('llmChat', input) });
 */
export class CallLedger {
  private readonly counts = new Map<Ref, number>();

  constructor(public generation = 0) {}

  key(kind: string, input: unknown, reuse: CallReuse = 'lineage'): string {
    const ref = logicalRef(kind, input);
    const k = this.counts.get(ref) ?? 0;
    this.counts.set(ref, k + 1);
    return reuse === 'shared' ? `shared/${ref}/${k}` : `g${this.generation}/${ref}/${k}`;
  }

  /** Returns `input` with its call key added. */
  keyed<T extends object>(kind: string, input: T, reuse: CallReuse = 'lineage'): T & { callKey: string } {
    return { ...input, callKey: this.key(kind, input, reuse) };
  }
}

/** The logical ref inside a call key (`g0/<ref>/3` → `<ref>`), or undefined when the key is not a ledger key. */
export function refOfCallKey(key: string): Ref | undefined {
  const match = /^(?:g\d+|shared)\/([0-9a-f]{32})\/\d+$/.exec(key);
  return match?.[1];
}
