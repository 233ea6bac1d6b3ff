import { capped, follow, isNewer, isVisible, streamKey, TOKEN_LINGER_MS, Wakeups, type TokenChannel, type TokenStream } from './token-channel';

/**
 * The token channel of the memory store: streams in a map, readers woken at once. One process
 * only (tests, in-process runs, a worker and its client in one program).
 *
 * @example
 * const tokens = new MemoryTokenChannel();
 * await tokens.publish(stream);
 * await tokens.current(stream.workflowId); // [stream]
 */
export class MemoryTokenChannel implements TokenChannel {
  private readonly runs = new Map<string, Map<string, TokenStream>>();
  private readonly wakeups = new Wakeups();
  private readonly closing = new AbortController();

  constructor(private readonly now: () => number = Date.now) {}

  async publish(stream: TokenStream): Promise<void> {
    const run = this.runs.get(stream.workflowId) ?? new Map<string, TokenStream>();
    this.runs.set(stream.workflowId, run);
    const key = streamKey(stream);
    if (!isNewer(stream, run.get(key))) return;
    run.set(key, capped(stream));
    if (stream.state !== 'streaming') {
      // Forgotten once it has lingered (a later attempt's stream, if any, is kept).
      setTimeout(() => {
        if (run.get(key)?.seq === stream.seq && run.get(key)?.attempt === stream.attempt) run.delete(key);
        if (run.size === 0 && this.runs.get(stream.workflowId) === run) this.runs.delete(stream.workflowId);
      }, TOKEN_LINGER_MS).unref();
    }
    this.wakeups.wake(stream.workflowId);
  }

  async current(workflowId: string): Promise<TokenStream[]> {
    const now = this.now();
    return [...(this.runs.get(workflowId)?.values() ?? [])].filter((s) => isVisible(s, now));
  }

  subscribe(workflowId: string, signal?: AbortSignal): AsyncIterable<TokenStream> {
    return follow(() => this.current(workflowId), (s) => this.wakeups.wait(workflowId, 1_000, s), signal, this.closing.signal);
  }

  async close(): Promise<void> {
    this.closing.abort();
  }
}
