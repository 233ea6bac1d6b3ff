import { resolve } from 'node:path';
import type { EvaluatorDefinition } from '../activities/evaluators';
import type { AnyToolDefinition } from '../activities/tools';
import type { MessageStore } from '../activities/store/message-store';

/**
 * A module that adds to a worker: `export const tools = [...]; export const evaluators = [...]`,
 * optionally a message store of its own (`export const store = ...`, any `MessageStore`).
 */
export interface WorkerModule {
  tools?: AnyToolDefinition[];
  evaluators?: EvaluatorDefinition[];
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
  return { tools: loaded.tools, evaluators: loaded.evaluators, store: loaded.store, workflowsPath: loaded.workflowsPath && resolve(loaded.workflowsPath) };
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
