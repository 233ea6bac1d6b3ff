/**
 * What `GroveClient.events` says about a run while it works (docs/streaming.md): its status,
 * each node its tree grows, each evaluation, and each model call's answer as it streams. Types
 * and pure helpers only, shared by the client, the viewer's server and its page.
 */

/** How the run stands: sent first, whenever it changes, and last (then the events end). */
export interface StatusEvent {
  type: 'status';
  /** GroveStatus as the run reports it (`running`, `succeeded`, `exhausted`, ...), else Temporal's word (`cancelled`, `terminated`). */
  status: string;
  /** Temporal's execution status: `RUNNING`, `COMPLETED`, `FAILED`, `CANCELLED`, ... */
  execution: string;
  /** False in the last event: the run has ended. */
  live: boolean;
}

/** A node of the run's tree (as the viewer draws it), when first seen. */
export interface NodeEvent {
  type: 'node';
  id: number;
  /** null for the root. */
  parent: number | null;
  /** One short line: a tool call, the start of an answer. */
  label: string;
  /** `root`, `expanded`, `open`, `solution`, `terminal`, `pruned`, `failed` or `abandoned`, when it was seen. */
  status: string;
}

/** A node's evaluation in [0, 1]: when it is first known, and if it changes. */
export interface EvaluationEvent {
  type: 'evaluation';
  nodeId: number;
  score: number;
}

/**
 * A model call's answer (one of its `n` choices) as it streams: the whole text so far (a reader
 * that comes late or reconnects starts here) and what it added since the last event of this
 * stream. Redacted, at most 64,000 characters (`cut` past that).
 */
export interface TokenEvent {
  type: 'token';
  /** The call: `<Temporal run id>/<activity id>`. */
  callId: string;
  activityId: string;
  /** The call's attempt: a retried call streams again from the start (`restarted`). */
  attempt: number;
  /** Which of the call's answers, from 0. */
  choice: number;
  /** What the workflow said the call does (`expand n4 (depth 2): 3 candidates`), when found. */
  summary?: string;
  /** The tree node the call extends (its answers become that node's children), when the summary names one. */
  node?: number;
  /** The answer so far. */
  text: string;
  /** What this event added: the end of `text` (all of it when the stream is new or `restarted`). */
  delta: string;
  /** True when `text` does not continue the previous event's text (a new attempt). */
  restarted: boolean;
  /** `streaming`, then `done` (the answer as stored) or `failed` (the call failed or was cancelled). */
  state: 'streaming' | 'done' | 'failed';
  /** True when the answer is longer than `text`. */
  cut: boolean;
}

export type RunEvent = StatusEvent | NodeEvent | EvaluationEvent | TokenEvent;

/**
 * The tree node a model call extends, from its summary: `expand n4 …` (a search node) → 4,
 * `samples 7-8 ← 4` (an airetry or code-fixer call from sample 4) → 4, `generate: …` → 0 (the
 * prompt); undefined for other calls.
 *
 * @example
 * nodeOfSummary('expand n4 (depth 2): 3 candidates'); // 4
 * nodeOfSummary('sample 5 ← 2 with feedback'); // 2
 */
export function nodeOfSummary(summary: string | undefined): number | undefined {
  if (!summary) return undefined;
  const expand = /^expand n(\d+)\b/.exec(summary);
  if (expand) return Number(expand[1]);
  const sample = /^samples? [\d-]+ ← (\d+)\b/.exec(summary);
  if (sample) return Number(sample[1]);
  return summary.startsWith('generate:') ? 0 : undefined;
}

/**
 * The next token event of a stream given the text of its previous one: what was added, or the
 * whole text when it does not continue it (a new attempt, a redaction that changed its end).
 *
 * @example
 * growth('Hello', 'Hello, world'); // { delta: ', world', restarted: false }
 */
export function growth(before: string | undefined, text: string): { delta: string; restarted: boolean } {
  if (before === undefined) return { delta: text, restarted: false };
  if (text.startsWith(before)) return { delta: text.slice(before.length), restarted: false };
  return { delta: text, restarted: true };
}
