import OpenAI from 'openai';
import type { LlmConfig } from './llm-config';

/**
 * The `openai` client every grove activity uses: its own retries are off, because Temporal
 * retries activities durably and visibly (a retry inside the SDK would be invisible, and
 * repeated if the worker died).
 */
export function createOpenAIClient(config: LlmConfig): OpenAI {
  return new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, maxRetries: 0, timeout: config.timeoutMs });
}
