import { z } from 'zod';
import { INPUT_LIMITS } from './input-shape';
import { ChatParamsSchema } from './chat-params';
import { LlmSettingsSchema } from './llm-settings';
import { MessageSchema } from './messages';

/** The seeds' default system message for a plain-string prompt. */
export const DEFAULT_SYSTEM_PROMPT = 'Act as a helpful AI assistant';

/** A prompt as a string (with an optional system message) or a whole conversation. */
export const PromptInputSchema = z.object({
  prompt: z.string().min(1).optional().describe('The task as one user message. Give exactly one of `prompt` or `messages`.'),
  messages: z
    .array(MessageSchema)
    .min(1)
    .max(INPUT_LIMITS.messages)
    .optional()
    .describe('The conversation so far, as OpenAI chat messages (`{"role": "user", "content": "..."}`). Give exactly one of `prompt` or `messages`.'),
  /** System message for a string prompt; `null` sends none. */
  system: z
    .string()
    .nullable()
    .optional()
    .describe('System message for a string `prompt` (default "Act as a helpful AI assistant"); null sends none.'),
  model: z.string().min(1).optional().describe("The model name at the workers' endpoint (default the workers' GROVE_MODEL)."),
  apiKwargs: ChatParamsSchema.optional().describe(
    'Extra chat-completion parameters, passed through as OpenAI names them (temperature, top_p, n, max_tokens, seed, tools, response_format...); unknown provider-specific ones pass too.',
  ),
  llm: LlmSettingsSchema.optional().describe('How model calls run as Temporal activities: task queue, timeouts, retries, reuse of paid results.'),
});
