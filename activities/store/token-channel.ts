/**
 * The token side channel: where a model call's answer is kept while it streams, so clients (the
 * CLI, the viewer, `GroveClient.events`) can show it growing. It lives in the message store's
 * backend — a folder, PostgreSQL or memory, whatever the workers already share — and never in
 * workflow history: only the finished answer is recorded, as before. What is written is the
 * answer so far as a whole (not its chunks), already redacted and capped by the publisher, so a
 * reader that comes late or reconnects reads the text so far and then its growth.
 */

/** One streamed choice of one model call, as it stands. */
export interface TokenStream {
  /** The run: its workflow id. */
  workflowId: string;
  /** The Temporal run (execution) the call belongs to: it changes at continue-as-new. */
  runId: string;
  /** The call's activity id within that run (with `runId`: which activity's summary says what it does). */
  activityId: string;
  /** The activity's attempt: a retried call streams again from the start. */
  attempt: number;
  /** Which of the call's answers (`n` > 1), from 0. */
  choice: number;
  /** The answer so far: redacted, at most `TOKEN_TEXT_MAX` characters. */
  text: string;
  /** True when the answer is longer than `text` (capped). */
  cut: boolean;
  /** `streaming` while it grows, then `done` (the final answer, as stored) or `failed` (the call failed or was cancelled). */
  state: 'streaming' | 'done' | 'failed';
  /** Increases with every publication of this stream by its attempt. */
  seq: number;
  /** When it was published (ms since the epoch, the publisher's clock). */
  atMs: number;
}

/**
 * The channel of one store backend.
 *
 * @example
 * const tokens = store.tokenChannel?.();
 * for await (const s of tokens.subscribe('agent-1a2b', signal)) console.log(s.choice, s.text);
 */
export interface TokenChannel {
  /** Replaces the stream's text so far (a later `seq` of the same attempt, or a later attempt, wins). */
  publish(stream: TokenStream): Promise<void>;
  /** The run's streams now: those streaming, and those that ended in the last `TOKEN_LINGER_MS`. */
  current(workflowId: string): Promise<TokenStream[]>;
  /** The run's streams now (each as it stands), then each change, until `signal` aborts. */
  subscribe(workflowId: string, signal?: AbortSignal): AsyncIterable<TokenStream>;
  /** Stops listening and forgets what this process published (a store's `close` calls it). */
  close(): Promise<void>;
}

/** The most characters of an answer the channel carries: enough for any reader, bounded for the store. */
export const TOKEN_TEXT_MAX = 64_000;
/** How long a stream that ended stays readable (a reader that comes a moment late still sees how it ended). */
export const TOKEN_LINGER_MS = 30_000;
/** A stream not written for this long is a dead worker's: no reader is shown it, and the next sweep removes it. */
export const TOKEN_STALE_MS = 10 * 60_000;

/** The stream's key within its run: one per call and choice. */
export function streamKey(s: Pick<TokenStream, 'runId' | 'activityId' | 'choice'>): string {
  return `${s.runId}/${s.activityId}#${s.choice}`;
}

/** Whether `a` is a later state of its stream than `b` (a later attempt, or a later publication of the same one). */
export function isNewer(a: Pick<TokenStream, 'attempt' | 'seq'>, b: Pick<TokenStream, 'attempt' | 'seq'> | undefined): boolean {
  return !b || a.attempt > b.attempt || (a.attempt === b.attempt && a.seq > b.seq);
}

/** Whether a reader should still see it: streaming and fresh, or ended within the linger. */
export function isVisible(s: TokenStream, nowMs: number): boolean {
  return s.state === 'streaming' ? nowMs - s.atMs < TOKEN_STALE_MS : nowMs - s.atMs < TOKEN_LINGER_MS;
}

/** The stream with its text within `TOKEN_TEXT_MAX` (a publisher that did not cap it is capped here). */
export function capped(s: TokenStream): TokenStream {
  return s.text.length <= TOKEN_TEXT_MAX ? s : { ...s, text: s.text.slice(0, TOKEN_TEXT_MAX), cut: true };
}

/**
 * A subscription made of what a backend can do: read the run's streams, and wait until they may
 * have changed (a notification, or a poll's interval). Yields each stream when first seen and
 * whenever it is newer than what was yielded, until one of `signals` aborts (the reader's, the
 * channel's closing) or the reader stops iterating.
 *
 * @example
 * return follow(() => this.current(id), (s) => this.wakeups.wait(id, 250, s), signal, this.closing.signal);
 */
export async function* follow(
  read: () => Promise<TokenStream[]>,
  changed: (signal: AbortSignal) => Promise<void>,
  ...signals: Array<AbortSignal | undefined>
): AsyncGenerator<TokenStream> {
  const stop = new AbortController();
  const abort = () => stop.abort();
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  for (const s of given) {
    if (s.aborted) stop.abort();
    else s.addEventListener('abort', abort, { once: true });
  }
  const seen = new Map<string, TokenStream>();
  try {
    while (!stop.signal.aborted) {
      const next = changed(stop.signal); // armed before reading, so a change during the read is not missed
      for (const s of await read().catch(() => [] as TokenStream[])) {
        const key = streamKey(s);
        if (!isNewer(s, seen.get(key))) continue;
        seen.set(key, s);
        yield s;
      }
      await next;
    }
  } finally {
    for (const s of given) s.removeEventListener('abort', abort);
    stop.abort(); // ends the wait still armed
  }
}

/**
 * Wake-ups by key: `wait` resolves at the next `wake(key)`, after `ms`, or when `signal` aborts,
 * whichever comes first.
 */
export class Wakeups {
  private readonly waiting = new Map<string, Set<() => void>>();

  wait(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const set = this.waiting.get(key) ?? new Set();
      this.waiting.set(key, set);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.waiting.get(key) === set) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  wake(key: string): void {
    for (const done of [...(this.waiting.get(key) ?? [])]) done();
  }

  /** Keys someone waits on now. */
  keys(): string[] {
    return [...this.waiting.keys()];
  }

  /** Wakes everyone (the channel is closing). */
  wakeAll(): void {
    for (const key of [...this.waiting.keys()]) this.wake(key);
  }
}

