/**
 * zod schemas of the OpenAI request bodies the scripted server accepts.
 *
 * WHY: the server must reject what OpenAI rejects (so grove's "bad request is not retryable"
 * path is exercised), yet stay lenient about extra fields that OpenAI-compatible servers
 * (vLLM, llama.cpp, LiteLLM) accept: objects are "loose", unknown keys pass through and are
 * ignored.
 */
import { z } from 'zod';

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
/** Any other content part (image_url, input_audio, file, refusal...): accepted, never read. */
const otherPart = z.looseObject({ type: z.string() });
const contentPart = z.union([textPart, otherPart]);
const content = z.union([z.string(), z.array(contentPart)]);

const toolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const systemMessage = z.looseObject({ role: z.literal('system'), content, name: z.string().optional() });
const developerMessage = z.looseObject({ role: z.literal('developer'), content, name: z.string().optional() });
const userMessage = z.looseObject({ role: z.literal('user'), content, name: z.string().optional() });
const assistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: content.nullable().optional(),
  name: z.string().optional(),
  refusal: z.string().nullable().optional(),
  tool_calls: z.array(toolCall).optional(),
});
const toolMessage = z.looseObject({ role: z.literal('tool'), content, tool_call_id: z.string() });
/** Deprecated `function` role: accepted for completeness. */
const functionMessage = z.looseObject({ role: z.literal('function'), content: z.string().nullable(), name: z.string() });

export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessage,
  developerMessage,
  userMessage,
  assistantMessage,
  toolMessage,
  functionMessage,
]);

export const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

export const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);

export const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  n: z.number().int().min(1).max(128).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  tools: z.array(functionToolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: responseFormatSchema.optional(),
});

export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([
    z.string(),
    z.array(z.string()).min(1),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1),
  ]),
  dimensions: z.number().int().min(1).max(4096).optional(),
  encoding_format: z.enum(['float', 'base64']).optional(),
  user: z.string().optional(),
});

/** A validated chat completion request, as policies receive it. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type FunctionTool = z.infer<typeof functionToolSchema>;
export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;
