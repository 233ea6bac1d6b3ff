import { llmConfigFromEnv, type LlmConfig } from '../../activities/llm/llm-config';
import { startModelServer } from '../../model-server';

export interface ModelTarget {
  llm: LlmConfig;
  /** True when grove's scripted model server is answering (no endpoint configured). */
  scripted: boolean;
  stop(): Promise<void>;
}

/**
 * The model endpoint for local work: the configured one (`OPENAI_BASE_URL` / `OPENAI_API_KEY`),
 * or — when neither is set — grove's scripted OpenAI-compatible server, so the demo and
 * `grove dev` work offline. The scripted server's default model is `assistant`.
 *
 * @example
 * const model = await ensureModel({ log: console.log });
 */
export async function ensureModel(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {}): Promise<ModelTarget> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) {
    const llm = llmConfigFromEnv(env);
    log(`model: ${llm.baseURL} (default model ${llm.defaultModel})`);
    return { llm, scripted: false, stop: async () => {} };
  }
  const server = await startModelServer({ port: Number(env.GROVE_MODEL_SERVER_PORT ?? 0) });
  const llm = llmConfigFromEnv({ ...env, OPENAI_BASE_URL: server.baseURL, GROVE_MODEL: env.GROVE_MODEL ?? 'assistant' });
  log(`model: no OPENAI_BASE_URL or OPENAI_API_KEY set, so grove's scripted model server answers at ${server.baseURL}`);
  return { llm, scripted: true, stop: () => server.close() };
}
