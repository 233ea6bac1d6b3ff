import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import { MalformedStreamError, StreamAssembly, type PartialAnswer } from './stream-assembly';

type Body = OpenAI.ChatCompletionCreateParamsNonStreaming;

export interface StreamedRequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Longest wait for the next chunk once the answer has begun (the SDK's timeout ends at the response's headers). */
  idleTimeoutMs: number;
  /**
   * Called after each chunk with a view of every choice as it stands (by the server's index):
   * reading it costs a walk over the answer, so a caller reads it when it needs it, not per chunk.
   */
  onProgress?: (current: () => Map<number, PartialAnswer>) => void;
}

/** How the server answered a streamed request. */
export type StreamedAnswer =
  /** Chunks, assembled: `usage` is missing when the server did not send it. */
  | { kind: 'streamed'; response: OpenAI.ChatCompletion; hasUsage: boolean }
  /** One JSON completion: the server ignored `stream: true`. */
  | { kind: 'whole'; response: OpenAI.ChatCompletion };

/** The stream went quiet mid-answer for longer than `idleTimeoutMs`. */
export class StreamIdleError extends Error {
  override name = 'StreamIdleError';
}

/** The stream ended before every choice said how it finished (a connection closed mid-answer). */
export class StreamCutError extends Error {
  override name = 'StreamCutError';
}

/**
 * One chat completion requested with `stream: true` and `stream_options.include_usage`, read
 * chunk by chunk and assembled into the completion `stream: false` would have returned
 * (`StreamAssembly`). A server that ignores `stream` and answers with one JSON body is read as
 * such (`kind: 'whole'`). Errors before the answer begins are the SDK's own (classified by the
 * caller as for any request); after it begins: the caller's abort (its signal's reason is
 * thrown), `StreamIdleError` when no chunk comes for `idleTimeoutMs`, `StreamCutError` when the
 * stream ends before an answer finished, `MalformedStreamError` for chunks no completion has.
 *
 * @example
 * const answer = await streamedCompletion(client, body, { signal, idleTimeoutMs: 300_000, onProgress: (current) => show(current().get(0)?.content) });
 */
export async function streamedCompletion(client: OpenAI, body: Body, opts: StreamedRequestOptions): Promise<StreamedAnswer> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  let quiet = false;
  let responseBody: ReadableStream | null | undefined;
  const watch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      quiet = true;
      controller.abort();
    }, opts.idleTimeoutMs);
  };
  try {
    const request = { ...body, stream: true, stream_options: { include_usage: true } } as OpenAI.ChatCompletionCreateParamsStreaming;
    const response = await client.chat.completions.create(request, { signal: controller.signal, headers: opts.headers }).asResponse();
    responseBody = response.body as ReadableStream | null;
    if (!/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      return { kind: 'whole', response: (await response.json()) as OpenAI.ChatCompletion };
    }
    const assembly = new StreamAssembly();
    const current = () => assembly.partials();
    watch();
    try {
      // The SDK's stream ends quietly when its request is aborted: whether it was is checked after.
      for await (const chunk of Stream.fromSSEResponse<OpenAI.ChatCompletionChunk>(response, controller)) {
        watch();
        assembly.add(chunk);
        opts.onProgress?.(current);
      }
    } catch (err) {
      // A connection that breaks mid-answer (the body's read fails): not the server's word, a cut stream.
      // (Duck-typed: the fetch implementation's errors may come from another realm than this module's Error.)
      const message = (err as { message?: unknown } | undefined)?.message;
      if (typeof message === 'string' && !(err instanceof OpenAI.APIError) && !(err instanceof MalformedStreamError) && !opts.signal?.aborted && !quiet) {
        throw new StreamCutError(`the stream broke mid-answer (${message})`);
      }
      throw err;
    }
    if (opts.signal?.aborted) throw opts.signal.reason ?? new OpenAI.APIUserAbortError();
    if (quiet) throw idleError(opts.idleTimeoutMs);
    const unfinished = assembly.unfinished();
    if (!assembly.started || unfinished.length > 0) {
      throw new StreamCutError(assembly.started ? `the stream ended before choice ${unfinished.join(', ')} finished` : 'the stream ended without a chunk');
    }
    return { kind: 'streamed', response: assembly.completion(), hasUsage: assembly.hasUsage };
  } catch (err) {
    if (opts.signal?.aborted && !(err instanceof OpenAI.APIUserAbortError)) throw opts.signal.reason ?? err;
    if (quiet) throw idleError(opts.idleTimeoutMs);
    throw err;
  } finally {
    clearTimeout(idle);
    opts.signal?.removeEventListener('abort', onAbort);
    controller.abort(); // a stream left early (an error) must not keep its connection
    if (responseBody && !responseBody.locked) void responseBody.cancel().catch(() => {});
  }
}

function idleError(ms: number): StreamIdleError {
  return new StreamIdleError(`no chunk for ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`} mid-answer (GROVE_LLM_TIMEOUT_MS)`);
}
