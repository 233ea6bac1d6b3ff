import { z } from 'zod';
import { ChatParamsSchema } from './chat-params';
import { LlmSettingsSchema } from './llm-settings';
import { AssistantMessageSchema, MessageSchema, UsageSchema } from './messages';

/** The seeds' default system message for a plain-string prompt. */
export const DEFAULT_SYSTEM_PROMPT = 'Act as a helpful AI assistant';

/** A prompt as a string (with an optional system message) or a whole conversation. */
export const PromptInputSchema = z.object({
  prompt: z.string().min(1).optional(),
  messages: z.array(MessageSchema).min(1).optional(),
  /** System message for a string prompt; `null` sends none. */
  system: z.string().nullable().optional(),
  model: z.string().min(1).optional(),
  apiKwargs: ChatParamsSchema.optional(),
  llm: LlmSettingsSchema.optional(),
});

export const GenerateInputSchema = PromptInputSchema.strict().refine((v) => (v.prompt === undefined) !== (v.messages === undefined), {
  message: 'give exactly one of `prompt` or `messages`',
  path: ['prompt'],
});
export type GenerateInput = z.input<typeof GenerateInputSchema>;

export const GenerateResultSchema = z.object({
  output: z.string().nullable(),
  message: AssistantMessageSchema,
  conversation: z.array(MessageSchema),
  usage: UsageSchema,
  model: z.string(),
});
export type GenerateResult = z.infer<typeof GenerateResultSchema>;
