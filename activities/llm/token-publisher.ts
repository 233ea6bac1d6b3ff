import { activityContext } from '../activity-context';
import type { MessageStore } from '../store/message-store';
import { TOKEN_TEXT_MAX, type TokenChannel, type TokenStream } from '../store/token-channel';
import { answerText } from './answer-text';
import type { PartialAnswer } from './stream-assembly';

/** A redactor, and how much of a growing text it lets through now (`Redactor.safePrefix`); without it nothing shows until the answer is done. */
export type StreamRedact = ((text: string) => string) & { safePrefix?: (text: string) => number };

export interface TokenPublisherOptions {
  /** At most one publication per this many ms (default 50): a stream costs a write or two per tick, not one per token. */
  throttleMs?: number;
  /** The longest `finish` waits for the channel (default 2 s): a slow or broken channel never holds a call's result back. */
  finishTimeoutMs?: number;
}

type Ids = Pick<TokenStream, 'workflowId' | 'runId' | 'activityId' | 'attempt'>;

/**
 * Publishes a model call's answer to the token channel while it streams: each choice's text so
 * far, redacted as a whole (never chunk by chunk) and only up to where a secret could still be
 * starting (`safePrefix`), capped at `TOKEN_TEXT_MAX`; at most once per `throttleMs`, one
 * publication at a time (the latest state wins; a slow channel publishes less often, never
 * queues), and nothing before there is text to show (an answer done within `throttleMs` is one
 * write: its end). Nothing it does can fail or hold up the call: errors are swallowed (logged once),
 * and `finish` waits at most `finishTimeoutMs`.
 *
 * @example
 * const publisher = tokenPublisher(store, redact);
 * await compatCompletion(client, compat, body, { stream: true, onProgress: publisher?.progress });
 * await publisher?.finish(new Map([[0, answerText(answer, true)]]));
 */
export class TokenPublisher {
  private seq = 0;
  private latest: (() => Map<number, PartialAnswer>) | undefined;
  private readonly shown = new Map<number, { text: string; cut: boolean }>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private lastAt = 0;
  private ended = false;
  private warned = false;

  constructor(
    private readonly channel: TokenChannel,
    private readonly ids: Ids,
    private readonly redact: StreamRedact,
    private readonly opts: TokenPublisherOptions = {},
  ) {}

  /** The answer as it stands (a view of every choice, read when published); published within `throttleMs`. */
  readonly progress = (current: () => Map<number, PartialAnswer>): void => {
    if (this.ended) return;
    this.latest = current;
    this.schedule();
  };

  /**
   * Ends the streams: each choice's final text (the answer as stored, redacted), or, without
   * `final`, what was shown so far marked failed (the call failed or was cancelled).
   */
  async finish(final?: Map<number, string>): Promise<void> {
    if (this.ended) return; // once: a call that failed after its answers were recorded keeps them done
    this.ended = true;
    clearTimeout(this.timer);
    const done = (async () => {
      await this.inFlight;
      const state = final ? 'done' : 'failed';
      const texts = final ? new Map([...final].map(([i, t]) => [i, { text: t.slice(0, TOKEN_TEXT_MAX), cut: t.length > TOKEN_TEXT_MAX }])) : this.shown;
      await this.send([...texts].map(([choice, t]) => ({ choice, ...t, state })));
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.opts.finishTimeoutMs ?? 2_000)))]);
    clearTimeout(timer);
  }

  private schedule(): void {
    if (this.timer) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const wait = Math.max(0, this.lastAt + (this.opts.throttleMs ?? 50) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private flush(): void {
    if (this.ended || !this.latest) return;
    const updates = [];
    for (const [choice, partial] of this.latest()) {
      const view = this.view(partial);
      const before = this.shown.get(choice);
      if (!before && view.text === '') continue; // nothing to show yet: a quick answer is written once, when done
      if (before && before.text === view.text && before.cut === view.cut) continue; // nothing new to show yet
      this.shown.set(choice, view);
      updates.push({ choice, ...view, state: 'streaming' as const });
    }
    if (updates.length === 0) return;
    this.lastAt = Date.now();
    this.inFlight = this.send(updates).finally(() => {
      this.inFlight = undefined;
      if (this.again && !this.ended) {
        this.again = false;
        this.schedule();
      }
    });
  }

  /** What may be shown of a choice now: redacted, held back where a secret could be starting, capped. */
  private view(partial: PartialAnswer): { text: string; cut: boolean } {
    // Only the start of a long answer is looked at (what a reader can be shown, and room for a secret at its end).
    const room = 2 * TOKEN_TEXT_MAX;
    const calls = partial.toolCalls.slice(0, room);
    const raw = answerText({ content: partial.content?.slice(0, room) ?? null, toolCalls: calls.map((c) => ({ name: c.name, arguments: c.arguments.slice(0, room) })), refusal: partial.refusal?.slice(0, room) }, false);
    const considered = raw.slice(0, room);
    const longer = raw.length > room || calls.length < partial.toolCalls.length || (partial.content?.length ?? 0) > room || partial.toolCalls.some((c) => c.arguments.length > room);
    const safe = this.redact.safePrefix ? this.redact.safePrefix(considered) : 0;
    const text = this.redact(considered.slice(0, safe));
    return { text: text.slice(0, TOKEN_TEXT_MAX), cut: text.length > TOKEN_TEXT_MAX || longer };
  }

  private async send(updates: Array<{ choice: number; text: string; cut: boolean; state: TokenStream['state'] }>): Promise<void> {
    try {
      await Promise.all(updates.map((u) => this.channel.publish({ ...this.ids, ...u, seq: ++this.seq, atMs: Date.now() })));
    } catch (err) {
      if (this.warned) return;
      this.warned = true;
      activityContext()?.log.warn(`grove: cannot publish a streamed answer (${(err as Error).message}); the call goes on, its answer is not shown while it streams`);
    }
  }
}

/**
 * The publisher for the current model call: undefined outside an activity (in-process runs have
 * no reader) or when the store keeps no token channel.
 *
 * @example
 * const publisher = tokenPublisher(store, redact);
 */
export function tokenPublisher(store: MessageStore, redact: StreamRedact, opts?: TokenPublisherOptions): TokenPublisher | undefined {
  const info = activityContext()?.info;
  const execution = info?.workflowExecution;
  const channel = store.tokenChannel?.();
  if (!info || !execution || !channel) return undefined;
  return new TokenPublisher(channel, { workflowId: execution.workflowId, runId: execution.runId, activityId: info.activityId, attempt: info.attempt }, redact, opts);
}
