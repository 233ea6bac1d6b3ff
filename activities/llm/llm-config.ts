import { z } from 'zod';
import { redactUrl } from '../store/store-errors';

/**
 * Where the worker's model calls go. From the environment by default:
 * `OPENAI_BASE_URL` (any OpenAI-compatible endpoint: OpenAI, vLLM, llama.cpp, Ollama, LiteLLM),
 * `OPENAI_API_KEY`, `GROVE_MODEL` (the model when a run names none) and
 * `GROVE_LLM_TIMEOUT_MS` (per HTTP request; for a streamed answer, also the longest pause
 * between its chunks), `GROVE_CONTEXT_TOKENS` (the model's context window: conversations are
 * fitted to it before each call) and `GROVE_STREAM` (`0`: answers are not streamed). Keys stay on the worker: runs name a model, never a
 * key, so no secret reaches workflow history.
 */
export interface LlmConfig {
  baseURL: string;
  apiKey: string;
  defaultModel: string;
  timeoutMs: number;
  /**
   * The model's context window in tokens, when known: each conversation is fitted to it (less
   * the answer's `max_tokens`) before it is sent — oldest tool outputs first (`fitToWindow`).
   * Unset: conversations are sent whole.
   */
  contextTokens?: number;
  /** How often a waiting call heartbeats, so a dead worker's call is retried quickly. */
  heartbeatIntervalMs: number;
  /**
   * Send the `x-grove-call-key` header (workflow id, run id, activity id) with each request. Off by
   * default — providers have no business knowing a run's ids; grove's scripted model server uses
   * it to count calls (`GROVE_SEND_CALL_KEY=1`).
   */
  sendCallKey: boolean;
  /**
   * Ask for model answers as streams (`stream: true`), so their text can be watched as it grows
   * (docs/streaming.md); the call's result is the same either way. On by default; `GROVE_STREAM=0`
   * turns it off. A server that refuses or ignores streaming is asked for whole answers (learned).
   * Unset: on.
   */
  stream?: boolean;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const EnvSchema = z.object({
  OPENAI_BASE_URL: z.url({ message: 'must be a URL such as http://localhost:8000/v1' }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  GROVE_MODEL: z.string().min(1).optional(),
  GROVE_LLM_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  GROVE_CONTEXT_TOKENS: z.coerce.number().int().min(256).optional(),
  GROVE_SEND_CALL_KEY: z.enum(['0', '1', 'true', 'false']).optional(),
  GROVE_STREAM: z.enum(['0', '1', 'true', 'false'], { message: 'must be 0 or 1 (or false, true)' }).optional(),
});

export class LlmConfigError extends Error {
  override name = 'LlmConfigError';
}

/**
 * @example
 * const config = llmConfigFromEnv(); // throws LlmConfigError naming the variable to fix
 */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<LlmConfig> = {}): LlmConfig {
  const relevant = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = EnvSchema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    const value = name === 'OPENAI_API_KEY' ? '***' : redactUrl(String(env[name]));
    throw new LlmConfigError(`${name}=${value} is invalid: ${issue.message}`);
  }
  const e = parsed.data;
  const baseURL = overrides.baseURL ?? e.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
  const url = new URL(baseURL);
  if (url.username || url.password) {
    throw new LlmConfigError(
      `OPENAI_BASE_URL has credentials in it (${redactUrl(baseURL)}): a URL ends up in logs, errors and run histories. Put the key in OPENAI_API_KEY (sent as a bearer token), or configure a proxy's own credentials on the proxy`,
    );
  }
  let apiKey = overrides.apiKey ?? e.OPENAI_API_KEY;
  if (!apiKey) {
    if (baseURL === OPENAI_DEFAULT_BASE_URL) {
      throw new LlmConfigError(
        'OPENAI_API_KEY is not set: set it for api.openai.com, or set OPENAI_BASE_URL to a local OpenAI-compatible server',
      );
    }
    apiKey = 'no-key'; // local servers usually ignore the key, but the SDK wants one
  }
  return {
    baseURL,
    apiKey,
    defaultModel: overrides.defaultModel ?? e.GROVE_MODEL ?? 'gpt-4o-mini',
    timeoutMs: overrides.timeoutMs ?? e.GROVE_LLM_TIMEOUT_MS ?? 300_000,
    contextTokens: overrides.contextTokens ?? e.GROVE_CONTEXT_TOKENS,
    heartbeatIntervalMs: overrides.heartbeatIntervalMs ?? 2_000,
    sendCallKey: overrides.sendCallKey ?? (e.GROVE_SEND_CALL_KEY === '1' || e.GROVE_SEND_CALL_KEY === 'true'),
    stream: overrides.stream ?? !(e.GROVE_STREAM === '0' || e.GROVE_STREAM === 'false'),
  };
}
