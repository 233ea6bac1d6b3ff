import { z } from 'zod';

/**
 * Chat messages in the OpenAI wire format, so a conversation can be sent to any
 * OpenAI-compatible endpoint without conversion. grove adds a few optional fields
 * (`runId`, `sampleId` on assistant messages, `rawOutput` on tool messages, `cut` on both) that the LLM
 * activity strips before sending.
 */
export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ImagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
export const ContentPartSchema = z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema]);

export const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/**
 * Set by grove on a message it cut to travel through Temporal (an answer or a tool output over
 * the operator's `maxInlineMessageBytes`, or an answer with more tool calls than
 * `maxToolCallsPerAnswer`): the whole message is `ref` in the message store.
 */
export const CutMarkSchema = z.object({
  ref: z.string().describe('The whole message, in the message store.'),
  bytes: z.number().int().nonnegative().describe('Its size as JSON, in bytes.'),
  droppedToolCalls: z.number().int().positive().optional().describe('Tool calls of the answer that were not run (the last one kept answers for them).'),
  keptChars: z.number().int().nonnegative().optional().describe('When its text was cut: the characters of it kept here.'),
});

export const SystemMessageSchema = z.object({ role: z.literal('system'), content: z.string() });
export const UserMessageSchema = z.object({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(ContentPartSchema)]),
});
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  tool_calls: z.array(ToolCallSchema).optional(),
  refusal: z.string().nullable().optional(),
  /** Which model call produced this message (one call may produce several samples). */
  runId: z.string().optional(),
  /** Index of this sample among the choices of its call. */
  sampleId: z.number().int().optional(),
  cut: CutMarkSchema.optional(),
});
export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  content: z.string(),
  /** What the tool returned before `formatOutput`; kept for evaluators, never sent. */
  rawOutput: z.unknown().optional(),
  cut: CutMarkSchema.optional(),
});

export const MessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

export type TextPart = z.infer<typeof TextPartSchema>;
export type ImagePart = z.infer<typeof ImagePartSchema>;
export type ContentPart = z.infer<typeof ContentPartSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type SystemMessage = z.infer<typeof SystemMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
export type CutMark = z.infer<typeof CutMarkSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type Conversation = Message[];

/** Token usage as reported by the provider (zeros when it reports none). */
export const UsageSchema = z.object({
  promptTokens: z.number().int().nonnegative().describe('Tokens sent.'),
  completionTokens: z.number().int().nonnegative().describe('Tokens generated.'),
  totalTokens: z.number().int().nonnegative().describe('Both.'),
});
export type Usage = z.infer<typeof UsageSchema>;

/** The text of a message: string content as is, text parts joined; `''` for none. */
export function messageText(message: Message): string {
  const content = message.content;
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

/**
 * @example
 * const conv = [systemMessage('Act as a helpful AI assistant'), userMessage('Say hi!')];
 */
export const systemMessage = (content: string): SystemMessage => ({ role: 'system', content });
export const userMessage = (content: string | ContentPart[]): UserMessage => ({ role: 'user', content });
export const assistantMessage = (content: string | null, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: 'assistant',
  content,
  ...extra,
});
export const toolMessage = (toolCallId: string, content: string, rawOutput?: unknown): ToolMessage =>
  rawOutput === undefined
    ? { role: 'tool', tool_call_id: toolCallId, content }
    : { role: 'tool', tool_call_id: toolCallId, content, rawOutput };
