import { z } from 'zod';
import { INPUT_LIMITS } from './input-shape';

/**
 * Model parameters a run may pass through to chat completions (the seeds' `api_kwargs`).
 * Known fields are checked; other provider-specific fields pass through untouched, because
 * OpenAI-compatible servers each add their own (vLLM's `top_k`, Ollama's `num_ctx`, ...).
 */
export const ToolDefinitionSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
});

export const ResponseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().optional(),
    }),
  }),
]);

export const ToolChoiceSchema = z.union([
  z.enum(['auto', 'required', 'none']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
]);

export const ChatParamsSchema = z.looseObject({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  n: z.number().int().min(1).max(128).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  seed: z.number().int().optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  logit_bias: z.record(z.string(), z.number()).optional(),
  tools: z.array(ToolDefinitionSchema).max(INPUT_LIMITS.tools).optional(),
  tool_choice: ToolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: ResponseFormatSchema.optional(),
  user: z.string().optional(),
});

export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;
export type ResponseFormat = z.infer<typeof ResponseFormatSchema>;
export type ChatParams = z.infer<typeof ChatParamsSchema>;
