import { z } from 'zod';
import { AssistantMessageSchema, MessageSchema, UsageSchema } from '../schemas/messages';
import { PromptInputSchema } from '../schemas/prompt-input';

/** Input of the `generate` workflow: one model call on a prompt. */
export const GenerateInputSchema = PromptInputSchema.strict().refine((v) => (v.prompt === undefined) !== (v.messages === undefined), {
  message: 'give exactly one of `prompt` or `messages`',
  path: ['prompt'],
});
export type GenerateInput = z.input<typeof GenerateInputSchema>;

export const GenerateResultSchema = z.object({
  output: z.string().nullable().describe("The answer's text (null when the model answered with tool calls only)."),
  message: AssistantMessageSchema.describe('The assistant message, as an OpenAI chat message.'),
  conversation: z.array(MessageSchema).describe('The prompt conversation followed by the answer.'),
  usage: UsageSchema.describe('Tokens the call used.'),
  model: z.string().describe('The model that answered, as the endpoint named it.'),
  finishReason: z.string().optional().describe("Why the answer ended, as the endpoint said: `stop`, or `length` when it was cut at the token limit (`apiKwargs.max_tokens`)."),
});
export type GenerateResult = z.infer<typeof GenerateResultSchema>;
