/**
 * Turns policy replies into an OpenAI `chat.completion` body. WHY deterministic ids and a
 * fixed `created`: the same request must produce byte-identical answers, so a replayed or
 * retried activity sees exactly what the first attempt saw.
 */
import { sha256Hex } from './hashing';
import { conversationChars } from './request-checks';
import type { ChatRequest } from './request-schema';
import { approxTokens } from './token-count';
import type { FinishReason, PolicyReply } from './types';

/** The `created` timestamp of every completion (2023-11-14T22:13:20Z): fixed for determinism. */
export const FIXED_CREATED = 1_700_000_000;

export interface CompletionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletionBody {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: {
    index: number;
    message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: CompletionToolCall[] };
    logprobs: null;
    finish_reason: FinishReason;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * Deterministic tool call id: `call_` + 24 hex of sha256(request hash, choice, index).
 *
 * @example
 * toolCallId('abc', 0, 1).startsWith('call_') // true
 */
export function toolCallId(hash: string, choice: number, index: number): string {
  return `call_${sha256Hex(`${hash}|${choice}|${index}`).slice(0, 24)}`;
}

/**
 * What every completion of a request carries, streamed or not: its deterministic id, the fixed
 * `created`, the model as asked and the server's fingerprint.
 *
 * @example
 * completionFrame(req, hash).id.startsWith('chatcmpl-') // true
 */
export function completionFrame(req: Pick<ChatRequest, 'model'>, hash: string): Pick<ChatCompletionBody, 'id' | 'created' | 'model' | 'system_fingerprint'> {
  return { id: `chatcmpl-${sha256Hex(`${hash}|completion`).slice(0, 24)}`, created: FIXED_CREATED, model: req.model, system_fingerprint: 'fp_grove_scripted' };
}

/** The characters each choice may keep: 4 per token of `max_completion_tokens` / `max_tokens`, unlimited without them. */
export function choiceCharLimit(req: Pick<ChatRequest, 'max_completion_tokens' | 'max_tokens'>): number {
  const limit = req.max_completion_tokens ?? req.max_tokens ?? undefined;
  return limit === undefined ? Infinity : limit * 4;
}

/**
 * Prompt characters for usage: conversation text and tool-call arguments plus the JSON of
 * `tools` and `response_format`. prompt_tokens = ceil(chars / 4).
 */
export function promptChars(req: ChatRequest): number {
  return (
    conversationChars(req) +
    (req.tools ? JSON.stringify(req.tools).length : 0) +
    (req.response_format ? JSON.stringify(req.response_format).length : 0)
  );
}

/**
 * Builds the completion. Completion tokens of a choice = ceil((content chars + tool names +
 * arguments chars) / 4), summed over choices. With max_completion_tokens / max_tokens = M,
 * each choice keeps at most 4*M characters (content first, then arguments in order) and then
 * finishes with 'length'.
 *
 * @example
 * buildCompletion(req, hash, [{ content: 'hi' }]).choices[0].finish_reason // 'stop'
 */
export function buildCompletion(req: ChatRequest, hash: string, replies: PolicyReply[]): ChatCompletionBody {
  let completionTokens = 0;
  const choices = replies.map((reply, index) => {
    let budget = choiceCharLimit(req);
    let cut = false;
    const take = (s: string): string => {
      if (s.length <= budget) {
        budget -= s.length;
        return s;
      }
      cut = true;
      const kept = s.slice(0, Math.max(0, budget));
      budget = 0;
      return kept;
    };
    const calls = reply.toolCalls ?? [];
    let content = reply.content ?? (calls.length > 0 ? null : '');
    if (content !== null) content = take(content);
    const toolCalls: CompletionToolCall[] = calls.map((c, j) => {
      const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {});
      return { id: toolCallId(hash, index, j), type: 'function', function: { name: c.name, arguments: take(args) } };
    });
    let chars = content?.length ?? 0;
    for (const tc of toolCalls) chars += tc.function.name.length + tc.function.arguments.length;
    completionTokens += approxTokens(chars);
    const finish: FinishReason = cut ? 'length' : (reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'));
    const message: ChatCompletionBody['choices'][number]['message'] = { role: 'assistant', content, refusal: null };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return { index, message, logprobs: null, finish_reason: finish };
  });
  const promptTokens = approxTokens(promptChars(req));
  const frame = completionFrame(req, hash);
  return {
    id: frame.id,
    object: 'chat.completion',
    created: frame.created,
    model: frame.model,
    system_fingerprint: frame.system_fingerprint,
    choices,
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}
