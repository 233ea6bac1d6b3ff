import type { RunEvent, TokenEvent } from '../../core/runs/run-events';

/**
 * Prints a run's model answers as they grow, one stream at a time (`grove run` on stderr): a
 * header line naming the call (`── expand n0 (depth 1): 3 candidates ──`, `(answer 2)` for the
 * second of its `n`), then the text as it grows, and a line break when the answer is done. An
 * answer that streams while another is being printed waits its turn and is printed from its
 * text so far; a call started again (a new attempt) says so and prints from its start. The
 * events' other kinds are left to the progress line.
 *
 * @example
 * const printer = new StreamPrinter((t) => process.stderr.write(t), { tty: true });
 * for await (const e of grove.events(id)) printer.event(e);
 * printer.end();
 */
export class StreamPrinter {
  /** The stream being printed, and what of it has been printed. */
  private current: { key: string; printed: string } | undefined;
  /** Streams waiting their turn: the latest event of each, in the order they began. */
  private readonly waiting = new Map<string, TokenEvent>();
  private readonly finished = new Set<string>();

  constructor(
    private readonly write: (text: string) => void,
    private readonly opts: { tty: boolean },
  ) {}

  /** Whether an answer is being printed now (a progress line must not be drawn over it). */
  get busy(): boolean {
    return this.current !== undefined;
  }

  event(e: RunEvent): void {
    if (e.type !== 'token') return;
    const key = `${e.callId}#${e.choice}`;
    if (this.finished.has(key) && !e.restarted) return;
    if (this.current && this.current.key !== key) {
      this.waiting.set(key, e);
      return;
    }
    this.print(key, e);
    if (e.state !== 'streaming') this.next();
  }

  /** Ends what is being printed (the run ended): the line is closed. */
  end(): void {
    if (this.current) this.write('\n');
    this.current = undefined;
  }

  private print(key: string, e: TokenEvent): void {
    if (!this.current) {
      const name = e.summary ?? 'model call';
      this.write(`${this.opts.tty ? '\r\x1b[2K' : ''}── ${name}${e.choice > 0 ? ` (answer ${e.choice + 1})` : ''} ──\n`);
      this.current = { key, printed: '' };
      this.finished.delete(key);
    }
    const cur = this.current;
    if (e.text.startsWith(cur.printed)) {
      this.write(e.text.slice(cur.printed.length));
    } else {
      // A call started again, or an ending that changed (a secret redacted at the end): from its start.
      this.write(`\n[${e.restarted ? `attempt ${e.attempt}: the call started again` : 'the answer changed'}]\n${e.text}`);
    }
    cur.printed = e.text;
    if (e.state === 'failed') this.write(`\n[${e.attempt > 1 ? `attempt ${e.attempt}` : 'the call'} failed or was cancelled]`);
  }

  /** The current stream ended: the line is closed, and the next waiting stream is printed from its text so far. */
  private next(): void {
    if (!this.current) return;
    this.finished.add(this.current.key);
    this.write('\n');
    this.current = undefined;
    const [key, waiting] = this.waiting.entries().next().value ?? [];
    if (key === undefined || !waiting) return;
    this.waiting.delete(key);
    this.print(key, waiting);
    if (waiting.state !== 'streaming') this.next();
  }
}
