import type { Client } from '@temporalio/client';
import type { MessageStore } from '../../activities/store/message-store';
import { streamKey, type TokenStream } from '../../activities/store/token-channel';
import { growth, nodeOfSummary, type RunEvent, type TokenEvent } from '../../core/runs/run-events';
import { activitySummary } from '../../temporal/runs/activity-summary';
import { RunNotFoundError, RunSource } from '../../ui/server/run-source';
import type { RunView } from '../../ui/model/view-tree';
import { EventQueue } from './event-queue';

export interface RunEventsOptions {
  /** Where the run's workers keep messages and streams. */
  store: MessageStore;
  /** How often the run's status and tree are read (ms); default 1000. */
  pollMs?: number;
  /** `false`: no token events (only status, nodes and evaluations). */
  tokens?: boolean;
  /** Ends the events early. */
  signal?: AbortSignal;
}

/** Consecutive failed reads of a run (Temporal unreachable) before the events fail. */
const MAX_READ_FAILURES = 10;

/**
 * A run's events (`RunEvent`), in the order they happen: its status first; each node of its tree
 * when first seen and each evaluation when known (read every `pollMs` — the run's queries and
 * description, what the viewer reads); each model call's answer as it streams, from the store's
 * token channel as soon as it is published; and when the run ends, the last of its streams and
 * then its final status. Nothing here writes to the run or its history.
 *
 * @example
 * for await (const e of runEvents(client, 'agent-1a2b', { store })) if (e.type === 'token') process.stdout.write(e.delta);
 */
export async function* runEvents(client: Client, workflowId: string, opts: RunEventsOptions): AsyncGenerator<RunEvent> {
  const queue = new EventQueue<RunEvent>();
  const stop = new AbortController();
  const abort = () => stop.abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  if (opts.signal?.aborted) abort();
  const source = new RunSource({ client, store: opts.store, reuseMs: 0 });
  const channel = opts.tokens === false ? undefined : opts.store.tokenChannel?.();
  const tokens = new TokenEvents(client, workflowId);
  let statusSent: () => void = () => {};
  const firstStatus = new Promise<void>((resolve) => (statusSent = resolve));

  const streaming = channel
    ? (async () => {
        // Subscribed at once (nothing is missed: a subscription starts with the text so far), reported after the first status.
        for await (const s of channel.subscribe(workflowId, stop.signal)) {
          const event = await tokens.event(s);
          await firstStatus;
          if (event) queue.push(event);
        }
      })().catch(() => {}) // no token events: the others go on
    : Promise.resolve();

  const polling = (async () => {
    const seen = new TreeSeen();
    let status = '';
    let failures = 0;
    while (!stop.signal.aborted) {
      let view: RunView;
      try {
        view = await source.view(workflowId);
        failures = 0;
      } catch (err) {
        if (err instanceof RunNotFoundError || ++failures >= MAX_READ_FAILURES) throw err;
        await pause(opts.pollMs ?? 1000, stop.signal);
        continue;
      }
      const now = `${view.run.status}|${view.run.execution}`;
      if (view.live && now !== status) queue.push({ type: 'status', status: view.run.status, execution: view.run.execution, live: true });
      status = now;
      statusSent();
      for (const event of seen.events(view)) queue.push(event);
      if (!view.live) {
        // The run has ended: how its calls' streams ended, then how it did.
        stop.abort();
        await streaming;
        for (const s of (await channel?.current(workflowId).catch(() => [])) ?? []) {
          const event = await tokens.event(s, true);
          if (event) queue.push(event);
        }
        queue.push({ type: 'status', status: view.run.status, execution: view.run.execution, live: false });
        break;
      }
      await pause(opts.pollMs ?? 1000, stop.signal);
    }
    queue.end();
  })().catch((err) => queue.fail(err));

  try {
    yield* queue;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    stop.abort();
    statusSent();
    // A read under way is waited for (a few ms; a query at most its deadline): nothing of this
    // reader outlives it, so its caller may close the connection at once.
    await Promise.all([streaming, polling]);
  }
}

/** Nodes and evaluations already reported, so each is reported once (an evaluation again if it changes). */
class TreeSeen {
  private readonly nodes = new Set<number>();
  private readonly scores = new Map<number, number>();

  events(view: RunView): RunEvent[] {
    const out: RunEvent[] = [];
    for (const n of view.tree?.nodes ?? []) {
      if (!this.nodes.has(n.id)) {
        this.nodes.add(n.id);
        out.push({ type: 'node', id: n.id, parent: n.parent, label: n.label, status: n.status });
      }
      if (n.score !== undefined && this.scores.get(n.id) !== n.score) {
        this.scores.set(n.id, n.score);
        out.push({ type: 'evaluation', nodeId: n.id, score: n.score });
      }
    }
    return out;
  }
}

/** Token events from channel updates: what each added to its stream, and the call's summary and node. */
class TokenEvents {
  private readonly last = new Map<string, TokenStream>();

  constructor(
    private readonly client: Client,
    private readonly workflowId: string,
  ) {}

  /**
   * The event for a stream's update, if it says something new. `runEnded`: the run has ended, so
   * a stream still `streaming` belongs to a call that will never be part of it — one Temporal
   * timed out whose worker has not heard yet (it closes the stream at its next heartbeat, after
   * this reader is gone). It is reported `failed`, as a later reader will see it.
   */
  async event(update: TokenStream, runEnded = false): Promise<TokenEvent | undefined> {
    // One past the stream's last write: an ending this reader concludes, never taken for an old update.
    const s: TokenStream = runEnded && update.state === 'streaming' ? { ...update, state: 'failed', seq: update.seq + 1 } : update;
    const key = streamKey(s);
    const before = this.last.get(key);
    if (before && before.attempt === s.attempt && before.seq >= s.seq) return undefined;
    if (before && before.text === s.text && before.state === s.state && before.attempt === s.attempt) {
      this.last.set(key, s);
      return undefined;
    }
    this.last.set(key, s);
    const { delta, restarted } = growth(before && before.attempt === s.attempt ? before.text : undefined, s.text);
    const summary = await activitySummary(this.client, { workflowId: this.workflowId, runId: s.runId }, s.activityId);
    const node = nodeOfSummary(summary);
    return {
      type: 'token',
      callId: `${s.runId}/${s.activityId}`,
      activityId: s.activityId,
      attempt: s.attempt,
      choice: s.choice,
      ...(summary !== undefined ? { summary } : {}),
      ...(node !== undefined ? { node } : {}),
      text: s.text,
      delta,
      restarted: restarted || (before !== undefined && before.attempt !== s.attempt),
      state: s.state,
      cut: s.cut,
    };
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
