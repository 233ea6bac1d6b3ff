import { resolve } from 'node:path';
import type { EvaluatorDefinition } from '../activities/evaluators';
import type { AnyToolDefinition } from '../activities/tools';
import type { MessageStore } from '../activities/store/message-store';
import { loadMcpConfigFile, mergeMcpServers, parseMcpServers, type McpServersConfig } from '../activities/mcp/mcp-config';

/**
 * A module that adds to a worker: `export const tools = [...]; export const evaluators = [...]`,
 * MCP servers whose tools to serve (`export const mcpServers = { everything: { command, args } }`),
 * optionally a message store of its own (`export const store = ...`, any `MessageStore`).
 */
export interface WorkerModule {
  tools?: AnyToolDefinition[];
  evaluators?: EvaluatorDefinition[];
  /** Checked when the module loads (a bad field stops the worker, naming it). */
  mcpServers?: McpServersConfig;
  store?: MessageStore;
  /** A workflows file to bundle instead of grove's (it should re-export grove's workflows). */
  workflowsPath?: string;
}

/**
 * Loads a worker module by path. A TypeScript module (`.ts`, `.mts`, `.cts`) is loaded through
 * `tsx` when it is installed in your project; otherwise compile it to JavaScript first.
 *
 * @example
 * const extra = loadWorkerModule('examples/worker-module.ts');
 * await createGroveWorker({ connection, taskQueue, tools: extra.tools, evaluators: extra.evaluators });
 */
export function loadWorkerModule(path: string): WorkerModule {
  let loaded: WorkerModule;
  if (/\.[mc]?ts$/.test(path)) enableTypeScript(path);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require(resolve(path)) as WorkerModule;
  } catch (err) {
    throw new Error(`cannot load worker module ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  for (const key of ['tools', 'evaluators'] as const) {
    if (loaded[key] !== undefined && !Array.isArray(loaded[key])) throw new Error(`worker module ${path}: \`${key}\` must be an array`);
  }
  if (loaded.store !== undefined && typeof (loaded.store as { get?: unknown }).get !== 'function') throw new Error(`worker module ${path}: \`store\` must be a MessageStore`);
  const mcpServers = loaded.mcpServers === undefined ? undefined : parseMcpServers(loaded.mcpServers, `worker module ${path}: mcpServers`);
  return { tools: loaded.tools, evaluators: loaded.evaluators, mcpServers, store: loaded.store, workflowsPath: loaded.workflowsPath && resolve(loaded.workflowsPath) };
}

/**
 * The MCP servers a grove worker process serves: those given on its command line, in the file
 * `GROVE_MCP_CONFIG` names, and in its worker module (a server name given twice stops it).
 *
 * @example
 * const servers = workerMcpServers(process.env, loadWorkerModule('worker.ts'));
 */
export function workerMcpServers(env: NodeJS.ProcessEnv, module: WorkerModule, given?: McpServersConfig): McpServersConfig {
  return mergeMcpServers(given, env.GROVE_MCP_CONFIG ? loadMcpConfigFile(env.GROVE_MCP_CONFIG, env) : undefined, module.mcpServers);
}

let typescript = false;

/** Lets `require` load TypeScript through tsx (already on when grove itself runs from source). */
function enableTypeScript(path: string): void {
  if (typescript || require.extensions['.ts']) return;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('tsx/cjs/api') as { register(): void }).register();
    typescript = true;
  } catch {
    throw new Error(`worker module ${path} is TypeScript: install tsx in your project (npm install -D tsx) or compile it to JavaScript`);
  }
}
