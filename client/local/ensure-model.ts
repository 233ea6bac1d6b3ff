import { basename } from 'node:path';
import { llmConfigFromEnv, type LlmConfig } from '../../activities/llm/llm-config';
import { startModelServer, type ModelServer } from '../../model-server';
import { createLocalModelPolicy, defaultLocalThreads, LOCAL_CONTEXT_TOKENS } from '../../model-server/local/local-model-policy';
import { importEngine } from '../../runtime/optional-engine';
import { plural } from '../../core/runs/run-figures';
import { ensureLocalModelFile, LOCAL_MODEL_FILE, LOCAL_MODEL_NAME } from './local-model-file';

export interface ModelTarget {
  llm: LlmConfig;
  /** Who answers: the configured endpoint, grove's embedded local model, or its scripted models. */
  kind: 'endpoint' | 'local' | 'scripted';
  /** True when grove's scripted models answer by default (`--scripted`). */
  scripted: boolean;
  /**
   * grove's own model server, when it answers (local or scripted; not a configured endpoint):
   * what it counted and holding a request unanswered — what lets the demo show, from the
   * model's side, which calls were paid.
   */
  server?: Pick<ModelServer, 'stats' | 'hold' | 'release'>;
  stop(): Promise<void>;
}

/**
 * The model endpoint for local work: the configured one (`OPENAI_BASE_URL` / `OPENAI_API_KEY`);
 * else grove's embedded local model — a real small instruct model (SmolLM2-135M-Instruct, fetched
 * from PyPI once) served by grove's OpenAI-compatible server, default model `smollm2`; or, with
 * `scripted`, grove's deterministic scripted models (default model `assistant`). The local server
 * serves the scripted models too, by name.
 *
 * @example
 * const model = await ensureModel({ log: console.log });            // local model unless OPENAI_BASE_URL is set
 * const scripted = await ensureModel({ log: console.log, scripted: true });
 */
export async function ensureModel(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv; scripted?: boolean } = {}): Promise<ModelTarget> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) {
    const llm = llmConfigFromEnv(env);
    log(`model: ${llm.baseURL} (default model ${llm.defaultModel})`);
    return { llm, kind: 'endpoint', scripted: false, stop: async () => {} };
  }
  const port = Number(env.GROVE_MODEL_SERVER_PORT ?? 0);
  if (opts.scripted) {
    const server = await startModelServer({ port });
    const llm = llmConfigFromEnv({ ...env, OPENAI_BASE_URL: server.baseURL, GROVE_MODEL: env.GROVE_MODEL ?? 'assistant' });
    log(`model: grove's scripted model server answers at ${server.baseURL}`);
    return { llm, kind: 'scripted', scripted: true, server, stop: () => server.close() };
  }
  await importEngine('node-llama-cpp', 'or set OPENAI_BASE_URL to use another endpoint, or --scripted for grove\'s scripted models');
  const local = await startLocalModel({ log, env, port });
  const llm = llmConfigFromEnv({
    ...env,
    OPENAI_BASE_URL: local.baseURL,
    GROVE_MODEL: env.GROVE_MODEL ?? LOCAL_MODEL_NAME,
    GROVE_CONTEXT_TOKENS: env.GROVE_CONTEXT_TOKENS ?? String(LOCAL_CONTEXT_TOKENS),
  });
  return { llm, kind: 'local', scripted: false, server: local.server, stop: local.close };
}

/**
 * grove's OpenAI-compatible server with the embedded local model (`smollm2`) besides the scripted
 * models. Threads: `GROVE_LOCAL_THREADS` (default: one core fewer than the machine has, 1 to 4).
 *
 * @example
 * const { baseURL, close } = await startLocalModel({ log: console.log });
 */
export async function startLocalModel(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv; port?: number; apiKeys?: string[] } = {}): Promise<{ baseURL: string; server: ModelServer; close(): Promise<void> }> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  await importEngine('node-llama-cpp'); // before the model file is fetched for nothing
  const modelPath = await ensureLocalModelFile({ log, env });
  const threads = env.GROVE_LOCAL_THREADS ? Number(env.GROVE_LOCAL_THREADS) : defaultLocalThreads();
  const started = Date.now();
  const policy = await createLocalModelPolicy({ modelPath, threads });
  const server = await startModelServer({ port: opts.port ?? 0, policies: [policy], apiKeys: opts.apiKeys });
  // Another GGUF file (GROVE_LOCAL_MODEL_PATH) answers under the same name: the line says which file.
  const what = basename(modelPath) === LOCAL_MODEL_FILE ? 'SmolLM2-135M-Instruct' : basename(modelPath);
  log(`model: no OPENAI_BASE_URL set, so grove's local model answers at ${server.baseURL}: ${LOCAL_MODEL_NAME} (${what} on the CPU, ${plural(threads, 'thread')}, loaded in ${Date.now() - started} ms)`);
  return {
    baseURL: server.baseURL,
    server,
    close: async () => {
      await server.close();
      await policy.close();
    },
  };
}
