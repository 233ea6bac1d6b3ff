import type http from 'node:http';
import { buildCompletion, choiceCharLimit, completionFrame } from './completion';
import { chunkFrame, planChunks, roleDelta } from './completion-chunks';
import type { FaultTarget } from './fault-book';
import { sendError } from './http-io';
import { policyFailure } from './openai-errors';
import type { ChatRequest } from './request-schema';
import type { ServerContext } from './server-context';
import { SseWriter } from './sse-writer';
import type { AsyncChatPolicy, ChatPolicy, PolicyContext, PolicyReply, RequestOutcome } from './types';

export interface StreamedChat {
  chat: ChatRequest;
  hash: string;
  policy: ChatPolicy | AsyncChatPolicy;
  policyCtx: PolicyContext;
  target: FaultTarget;
  state: { outcome: RequestOutcome; streamed?: boolean };
  /** Send the usage chunk (`stream_options.include_usage`, when the profile honours it). */
  includeUsage: boolean;
}

/**
 * Answers `stream: true` with server-sent `chat.completion.chunk` events: the same completion
 * `stream: false` gets, token by token (`planChunks`), usage last when
 * `stream_options.include_usage` asks for it, then `data: [DONE]`. A model that writes as it
 * thinks (the local model) streams a plain-text answer live, as it comes, within the same
 * `max_tokens` cut the finished answer gets; whatever it did not stream is sent when it is done.
 */
export async function streamChat(ctx: ServerContext, res: http.ServerResponse, s: StreamedChat): Promise<void> {
  const { chat, hash, includeUsage } = s;
  const writer = new SseWriter(ctx, res, s.target);
  const frame = chunkFrame(completionFrame(chat, hash), includeUsage);
  const limit = choiceCharLimit(chat);
  const streamed: string[] = [];
  const live = {
    text(choice: number, piece: string): void {
      const before = streamed[choice];
      const kept = piece.slice(0, Math.max(0, limit - (before ?? '').length));
      if (before === undefined) void writer.send(frame([roleDelta(choice, '')]), false);
      streamed[choice] = (before ?? '') + kept;
      if (kept) void writer.send(frame([{ index: choice, delta: { content: kept }, logprobs: null, finish_reason: null }]), true);
    },
  };
  let replies: PolicyReply[];
  try {
    // A scripted policy answers at once and ignores `live`; the local model streams into it.
    replies = await s.policy.respond(chat, s.policyCtx, live);
  } catch (e) {
    return fail(res, writer, `Policy '${s.policy.name}' failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const count = s.policyCtx.n;
  if (!Array.isArray(replies) || replies.length !== count) {
    return fail(res, writer, `Policy '${s.policy.name}' returned ${Array.isArray(replies) ? replies.length : 'no'} replies for n=${count}.`);
  }
  const body = buildCompletion({ ...chat, n: count }, hash, replies);
  const sent: number[] = [];
  for (const c of body.choices) {
    const text = streamed[c.index];
    if (text === undefined) continue;
    // What was streamed live must be the start of the answer, or the client would assemble another one.
    if (!(c.message.content ?? '').startsWith(text)) return fail(res, writer, `Policy '${s.policy.name}' streamed text that is not the start of its answer (choice ${c.index}).`);
    sent[c.index] = text.length;
  }
  for (const p of planChunks(body, { includeUsage, sent })) if (!(await writer.send(p.chunk, p.token))) return;
  s.state.outcome = 'completed';
  s.state.streamed = true;
  if (!(await writer.end())) s.state.outcome = 'failed';
}

async function fail(res: http.ServerResponse, writer: SseWriter, message: string): Promise<void> {
  const e = policyFailure(message);
  await writer.settled();
  if (!writer.started) return sendError(res, e);
  await writer.fail(e.error);
}
