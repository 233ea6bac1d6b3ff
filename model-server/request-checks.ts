/**
 * Checks a chat request beyond its shape, the way OpenAI does, and turns zod issues into
 * OpenAI's 400 envelope. WHY: grove must see a clear, non-retryable bad request for what a
 * real endpoint rejects (tool messages without a matching call, tool_choice without tools,
 * too long a context) instead of discovering it in production.
 */
import type { z } from 'zod';
import { type HttpError, badRequest } from './openai-errors';
import type { ChatRequest } from './request-schema';
import { messageText } from './policies/conversation';

/**
 * OpenAI-style parameter path: `messages[0].content`.
 *
 * @example
 * paramPath(['messages', 0, 'role']) // 'messages[0].role'
 */
export function paramPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = body;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a decimal';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  return 'an object';
}

/**
 * The 400 for the first zod issue, worded like OpenAI (missing parameter, invalid type,
 * invalid value).
 *
 * @example
 * zodIssueError(schema.safeParse({}).error!.issues, {}).error.code // 'missing_required_parameter'
 */
export function zodIssueError(issues: readonly z.core.$ZodIssue[], body: unknown): HttpError {
  const issue = issues[0];
  const param = paramPath(issue.path);
  const value = valueAt(body, issue.path);
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && value === undefined) {
    return badRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  }
  if (issue.code === 'invalid_type') {
    return badRequest(
      `Invalid type for '${param}': expected ${issue.expected}, but got ${typeName(value)} instead.`,
      param,
      'invalid_type',
    );
  }
  if (issue.code === 'invalid_union' && !('discriminator' in issue) && value !== undefined) {
    return badRequest(
      `Invalid type for '${param}': expected one of the allowed types, but got ${typeName(value)} instead.`,
      param,
      'invalid_type',
    );
  }
  return badRequest(`Invalid value for '${param}': ${issue.message}.`, param, 'invalid_value');
}

/**
 * Characters of a conversation: message texts plus tool-call names and arguments. Used for
 * the context-length check and for prompt token counts.
 */
export function conversationChars(req: ChatRequest): number {
  let n = 0;
  for (const m of req.messages) {
    n += messageText(m).length;
    if (m.role === 'assistant' && m.tool_calls) {
      for (const tc of m.tool_calls) n += tc.function.name.length + tc.function.arguments.length;
    }
  }
  return n;
}

/**
 * Pairing of tool messages with assistant tool calls, as OpenAI enforces it: every tool
 * message answers a call of the assistant message right before the run of tool messages, and
 * every such call is answered before any other message.
 */
export function toolMessageProblem(req: ChatRequest): HttpError | undefined {
  let pending = new Set<string>();
  let caller = -1;
  const unanswered = () =>
    badRequest(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
        `The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
      `messages.[${caller}].role`,
    );
  for (let i = 0; i < req.messages.length; i++) {
    const m = req.messages[i];
    if (m.role === 'tool') {
      if (!pending.delete(m.tool_call_id)) {
        return badRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      }
      continue;
    }
    if (pending.size > 0) return unanswered();
    if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0) {
      pending = new Set(m.tool_calls.map((tc) => tc.id));
      caller = i;
    }
  }
  return pending.size > 0 ? unanswered() : undefined;
}

export interface ChatCheckOptions {
  maxContextChars: number;
  strictToolMessages: boolean;
}

/**
 * Semantic checks of a valid-shaped chat request; undefined when it is acceptable.
 *
 * @example
 * checkChatRequest(req, { maxContextChars: 1e6, strictToolMessages: true }) // undefined
 */
export function checkChatRequest(req: ChatRequest, opts: ChatCheckOptions): HttpError | undefined {
  if (req.stream_options != null && !req.stream) {
    return badRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options', 'invalid_value');
  }
  const hasTools = (req.tools?.length ?? 0) > 0;
  if (req.tool_choice !== undefined && !hasTools) {
    return badRequest(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      'tool_choice',
    );
  }
  if (req.parallel_tool_calls !== undefined && !hasTools) {
    return badRequest(
      "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
      'parallel_tool_calls',
    );
  }
  const tc = req.tool_choice;
  if (tc && typeof tc === 'object' && !req.tools!.some((t) => t.function.name === tc.function.name)) {
    return badRequest(
      `Invalid value for 'tool_choice': function '${tc.function.name}' is not one of the 'tools'.`,
      'tool_choice',
      'invalid_value',
    );
  }
  if (opts.strictToolMessages) {
    const problem = toolMessageProblem(req);
    if (problem) return problem;
  }
  const chars = conversationChars(req);
  if (chars > opts.maxContextChars) {
    return badRequest(
      `This model's maximum context length is ${Math.ceil(opts.maxContextChars / 4)} tokens. ` +
        `However, your messages resulted in ${Math.ceil(chars / 4)} tokens ` +
        `(${chars} characters; the grove model server allows ${opts.maxContextChars}). Please reduce the length of the messages.`,
      'messages',
      'context_length_exceeded',
    );
  }
  return undefined;
}
