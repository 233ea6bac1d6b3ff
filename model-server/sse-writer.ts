import type http from 'node:http';
import { SSE_DONE, sseEvent, type ChatCompletionChunkBody } from './completion-chunks';
import type { FaultTarget } from './fault-book';
import type { OpenAIErrorBody } from './openai-errors';
import { wait } from './response-faults';
import type { ServerContext } from './server-context';

/**
 * Writes one streamed answer as server-sent events, in order, however its chunks arrive (a live
 * model hands them over from a callback): each token waits the server's `tokenDelayMs` first,
 * and after each token the hold gate may keep the answer mid-stream (`hold(match, { afterTokens })`).
 * Every write resolves false once the client has gone (or the server is closing): the writer
 * stops, and the request is counted aborted.
 *
 * @example
 * const writer = new SseWriter(ctx, res, target);
 * for (const p of planChunks(body, { includeUsage: true })) if (!(await writer.send(p.chunk, p.token))) return;
 * await writer.end();
 */
export class SseWriter {
  private tokens = 0;
  private gateCheckedAt = -1;
  private queue: Promise<boolean> = Promise.resolve(true);

  constructor(
    private readonly ctx: ServerContext,
    private readonly res: http.ServerResponse,
    private readonly target: FaultTarget,
  ) {}

  /** Whether anything was written (the status and headers are then sent: an error can only travel as an event). */
  get started(): boolean {
    return this.res.headersSent;
  }

  /** Queues a chunk; resolves whether the stream still goes on after it. */
  send(chunk: ChatCompletionChunkBody, token: boolean): Promise<boolean> {
    this.queue = this.queue.then((ok) => ok && this.write(sseEvent(chunk), token)).catch(() => false);
    return this.queue;
  }

  /** Resolves once every queued chunk is written (or the stream stopped). */
  settled(): Promise<boolean> {
    return this.queue;
  }

  /** Ends the stream with `data: [DONE]`, after every queued chunk. */
  async end(): Promise<boolean> {
    const ok = await this.queue;
    if (!ok || this.res.destroyed) return false;
    this.open();
    this.res.end(SSE_DONE);
    return true;
  }

  /** Ends the stream with an error event (OpenAI's envelope), which a client raises as an API error. */
  async fail(error: OpenAIErrorBody): Promise<void> {
    await this.queue;
    if (this.res.destroyed) return;
    this.open();
    this.res.end(sseEvent({ error }));
  }

  private async write(text: string, token: boolean): Promise<boolean> {
    if (this.res.destroyed || this.ctx.closing) return false;
    if (token && this.ctx.tokenDelayMs > 0 && !(await wait(this.ctx, this.ctx.tokenDelayMs, this.res))) return false;
    this.open();
    this.res.write(text);
    if (token) this.tokens += 1;
    if (this.tokens !== this.gateCheckedAt) {
      this.gateCheckedAt = this.tokens;
      if (!(await this.ctx.gate.pass(this.target, this.res, this.tokens))) return false;
    }
    return !this.res.destroyed;
  }

  private open(): void {
    if (this.res.headersSent) return;
    this.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    this.res.flushHeaders();
  }
}
