/**
 * grove's worker side, for authoring: tools and evaluators the search agents use (and the MCP
 * servers whose tools they serve), the message stores, the model configuration, and every
 * activity grove's workflows call (to register on a worker of your own, or to call in process).
 *
 * @example
 * import { defineTool } from 'grove-agents/activities';
 * import { z } from 'zod';
 * export const add = defineTool({ name: 'add', description: 'Adds two numbers', parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
 */
export * from './tools';
export * from './evaluators';
export * from './sandbox';
export * from './mcp';
export { createGroveActivities, type GroveActivities, type GroveActivityDeps } from './grove-activities';
export { createLlmActivities, type LlmActivities } from './llm/chat';
export { llmConfigFromEnv, LlmConfigError, type LlmConfig } from './llm/llm-config';
export { type MessageStore, type StoreEntry, type StoreStats, type CollectPlan, type CollectReport } from './store/message-store';
export { openStore, storeSettingsFromEnv, type StoreSettings } from './store/open-store';
export { FileMessageStore } from './store/file-message-store';
export { PostgresMessageStore, type PostgresPoolOptions } from './store/postgres-message-store';
export { MemoryMessageStore } from './store/memory-message-store';
export { TOKEN_TEXT_MAX, type TokenChannel, type TokenStream } from './store/token-channel';
export { CachedStore } from './store/cached-store';
export { StoreUnavailableError, StoreConfigError, redactUrl } from './store/store-errors';
