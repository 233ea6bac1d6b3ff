import { z } from 'zod';

/**
 * Where the worker's model calls go. From the environment by default:
 * `OPENAI_BASE_URL` (any OpenAI-compatible endpoint: OpenAI, vLLM, llama.cpp, Ollama, LiteLLM),
 * `OPENAI_API_KEY`, `GROVE_MODEL` (the model when a run names none) and
 * `GROVE_LLM_TIMEOUT_MS` (per HTTP request). Keys stay on the worker: runs name a model, never a
 * key, so no secret reaches workflow history.
 */
export interface LlmConfig {
  baseURL: string;
  apiKey: string;
  defaultModel: string;
  timeoutMs: number;
  /** How often a waiting call heartbeats, so a dead worker's call is retried quickly. */
  heartbeatIntervalMs: number;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const EnvSchema = z.object({
  OPENAI_BASE_URL: z.url({ message: 'must be a URL such as http://localhost:8000/v1' }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  GROVE_MODEL: z.string().min(1).optional(),
  GROVE_LLM_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
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
    throw new LlmConfigError(`${name}=${String(env[name])} is invalid: ${issue.message}`);
  }
  const e = parsed.data;
  const baseURL = overrides.baseURL ?? e.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
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
    heartbeatIntervalMs: overrides.heartbeatIntervalMs ?? 2_000,
  };
}
