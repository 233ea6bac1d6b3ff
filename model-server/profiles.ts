import type { HttpError } from './openai-errors';
import type { ChatRequest } from './types';

/**
 * Provider profiles: the scripted server behaving like another OpenAI-compatible server, so
 * grove's compatibility fallbacks are tested deterministically. A client picks one by its base
 * URL: `http://host:port/profile/llamacpp/v1`.
 *
 * `llamacpp` reproduces what llama-cpp-python's server (0.3.x, `--chat_format
 * chatml-function-calling`) was measured to do:
 * - an assistant turn with tool calls and `content: null` → 500 (its template concatenates None);
 * - `response_format` `json_schema` → 500 (a validation error: only 'text' or 'json_object');
 *   `json_object` may carry a `schema`, which it enforces;
 * - `tool_choice: "required"` → 500 (not supported; `auto` and a named function are);
 * - `n` is ignored: one choice, whatever was asked;
 * - `stream: true` is answered with server-sent chunks, but `stream_options.include_usage` is
 *   ignored: no usage chunk.
 *
 * Three more stand for servers that do not stream as OpenAI does: `no-streaming` refuses
 * `stream: true` with a 400 (as a server without streaming support does), `ignores-streaming`
 * answers it with a whole `chat.completion` JSON body, as if `stream` had not been sent, and
 * `no-stream-usage` streams but ignores `stream_options.include_usage` (older servers), so its
 * streams carry no token counts.
 */
export const PROFILES = ['openai', 'llamacpp', 'no-streaming', 'ignores-streaming', 'no-stream-usage'] as const;
export type ProfileName = (typeof PROFILES)[number];

export interface Profile {
  /** A refusal for this request, as the real server answers it. */
  refusal(req: ChatRequest): HttpError | undefined;
  /** How many choices it returns for `n`. */
  choices(n: number): number;
  /** What it does with `stream: true`: streams (`sse`; `sse-without-usage` never sends the usage chunk) or answers with one JSON body (`json`). */
  streams: 'sse' | 'sse-without-usage' | 'json';
}

const serverError = (message: string): HttpError => ({ status: 500, error: { message, type: 'internal_server_error', param: null, code: null } });

const llamacpp: Profile = {
  refusal(req) {
    const rf = req.response_format as { type?: string } | undefined;
    if (rf?.type === 'json_schema') {
      return serverError(
        "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', input_type=str]",
      );
    }
    if (req.tool_choice === 'required') {
      return serverError("1 validation error for CreateChatCompletionRequest\ntool_choice\n  Input should be 'none' or 'auto' [type=literal_error, input_value='required', input_type=str]");
    }
    if (req.messages.some((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0 && (m.content === null || m.content === undefined))) {
      return serverError('can only concatenate str (not "NoneType") to str');
    }
    return undefined;
  },
  choices: () => 1,
  streams: 'sse-without-usage',
};

const openai: Profile = { refusal: () => undefined, choices: (n) => n, streams: 'sse' };

const noStreaming: Profile = {
  refusal: (req) =>
    req.stream ? { status: 400, error: { message: 'Streaming is not supported by this server: send stream: false.', type: 'invalid_request_error', param: 'stream', code: 'unsupported_value' } } : undefined,
  choices: (n) => n,
  streams: 'json',
};

const ignoresStreaming: Profile = { refusal: () => undefined, choices: (n) => n, streams: 'json' };

const noStreamUsage: Profile = { refusal: () => undefined, choices: (n) => n, streams: 'sse-without-usage' };

const BY_NAME: Record<ProfileName, Profile> = { openai, llamacpp, 'no-streaming': noStreaming, 'ignores-streaming': ignoresStreaming, 'no-stream-usage': noStreamUsage };

/**
 * The profile named in a request path, and the path without it.
 *
 * @example
 * splitProfile('/profile/llamacpp/v1/chat/completions') // { profile: llamacpp, path: '/v1/chat/completions' }
 */
export function splitProfile(path: string): { profile: Profile; path: string } | { unknown: string } {
  const m = /^\/profile\/([^/]+)(\/.*)$/.exec(path);
  if (!m) return { profile: openai, path };
  const profile = Object.hasOwn(BY_NAME, m[1]!) ? BY_NAME[m[1] as ProfileName] : undefined;
  return profile ? { profile, path: m[2]! } : { unknown: m[1]! };
}
