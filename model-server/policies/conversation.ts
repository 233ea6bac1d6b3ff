/**
 * Reading a chat request the way the scripted policies need: texts, grove's evaluator
 * feedback, tool calls with their results, and what kind of output the caller asked for.
 * WHY shared: every policy plays a "game" driven by the feedback and tool results in the
 * conversation, and they must all read them the same way grove writes them.
 */
import type { ChatMessage, ChatRequest } from '../request-schema';

/** The header grove (like PromptingTools' `:FeedbackFromEvaluator`) puts before feedback. */
export const FEEDBACK_HEADER = '### Feedback from Evaluator';
/** Separator between ancestor feedbacks when feedback is appended in place. */
export const INPLACE_SEPARATOR = '----------';

/**
 * Plain text of a message's content: a string as is, text parts joined with newlines.
 *
 * @example
 * messageText({ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }) // 'a\nb'
 */
export function messageText(msg: ChatMessage): string {
  const c = (msg as { content?: unknown }).content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .filter((p): p is { type: 'text'; text: string } => !!p && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/** Text of all messages with the given roles, in order. */
export function textsByRole(req: ChatRequest, roles: readonly string[]): string[] {
  return req.messages.filter((m) => roles.includes(m.role)).map(messageText);
}

/** Every message's text (system, user, assistant, tool...) joined with blank lines. */
export function allText(req: ChatRequest): string {
  return req.messages.map(messageText).join('\n\n');
}

/** Removes every feedback section from a text, leaving the original prompt. */
export function withoutFeedback(text: string): string {
  const i = text.indexOf(FEEDBACK_HEADER);
  return (i < 0 ? text : text.slice(0, i)).trim();
}

/**
 * The first user message's text without any feedback appended in place: the task prompt.
 *
 * @example
 * firstUserText({ model: 'x', messages: [{ role: 'user', content: 'Guess!\n\n### Feedback from Evaluator\nNo\n' }] }) // 'Guess!'
 */
export function firstUserText(req: ChatRequest): string {
  const m = req.messages.find((x) => x.role === 'user');
  return m ? withoutFeedback(messageText(m)) : '';
}

/** The last user message's full text ('' when there is none). */
export function lastUserText(req: ChatRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    if (req.messages[i].role === 'user') return messageText(req.messages[i]);
  }
  return '';
}

/**
 * The last user message that is not pure feedback, without feedback: what the user asked.
 *
 * @example
 * lastQuestion({ model: 'x', messages: [{ role: 'user', content: 'Say hi!' }] }) // 'Say hi!'
 */
export function lastQuestion(req: ChatRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== 'user') continue;
    const t = withoutFeedback(messageText(m));
    if (t) return t;
  }
  return '';
}

/**
 * Every feedback text in the conversation, in order: each "### Feedback from Evaluator"
 * section of each user message, split further on in-place separators ("----------").
 *
 * @example
 * feedbackTexts({ model: 'x', messages: [{ role: 'user', content: 'Q\n\n### Feedback from Evaluator\nA\n----------\nB\n' }] }) // ['A', 'B']
 */
export function feedbackTexts(req: ChatRequest): string[] {
  const out: string[] = [];
  for (const m of req.messages) {
    // Feedback comes in user messages, or as the result of a tool call it answers (function calling).
    if (m.role !== 'user' && m.role !== 'tool') continue;
    const sections = messageText(m).split(FEEDBACK_HEADER).slice(1);
    for (const s of sections) {
      for (const part of s.split(new RegExp(`^\\s*${INPLACE_SEPARATOR}\\s*$`, 'm'))) {
        const t = part.trim();
        if (t) out.push(t);
      }
    }
  }
  return out;
}

/** Texts of the assistant messages so far (content only). */
export function assistantTexts(req: ChatRequest): string[] {
  return textsByRole(req, ['assistant']);
}

/** A tool call found in the conversation, with its answer when a tool message gave one. */
export interface MadeToolCall {
  id: string;
  name: string;
  /** The raw arguments string. */
  rawArguments: string;
  /** Parsed arguments, or undefined when they were not valid JSON. */
  arguments: unknown;
  /** Index of the assistant message that made it. */
  messageIndex: number;
  /** The tool message's text, or undefined when no tool message answered it. */
  result?: string;
}

/**
 * All tool calls the assistant made, in order, each matched to its tool message by
 * `tool_call_id`.
 *
 * @example
 * toolCallsMade(req).filter((c) => c.name === 'multiply' && c.result !== undefined)
 */
export function toolCallsMade(req: ChatRequest): MadeToolCall[] {
  const results = new Map<string, string>();
  for (const m of req.messages) if (m.role === 'tool') results.set(m.tool_call_id, messageText(m));
  const calls: MadeToolCall[] = [];
  req.messages.forEach((m, messageIndex) => {
    if (m.role !== 'assistant' || !m.tool_calls) return;
    for (const tc of m.tool_calls) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(tc.function.arguments);
      } catch {
        parsed = undefined;
      }
      calls.push({
        id: tc.id,
        name: tc.function.name,
        rawArguments: tc.function.arguments,
        arguments: parsed,
        messageIndex,
        result: results.get(tc.id),
      });
    }
  });
  return calls;
}

export type ResponseMode = 'text' | 'json_object' | 'json_schema';

/** Which output format the request asked for. */
export function responseMode(req: ChatRequest): ResponseMode {
  const rf = req.response_format as { type?: ResponseMode; schema?: unknown } | undefined;
  // json_object with a schema (llama.cpp's extension) is answered like json_schema.
  if (rf?.type === 'json_object' && rf.schema && typeof rf.schema === 'object') return 'json_schema';
  return rf?.type ?? 'text';
}

/** The JSON schema of a json_schema response_format, if any. */
export function responseSchema(req: ChatRequest): Record<string, unknown> | undefined {
  const rf = req.response_format;
  if (rf?.type === 'json_object') {
    const schema = (rf as { schema?: unknown }).schema;
    return schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : undefined;
  }
  return rf && rf.type === 'json_schema' ? rf.json_schema.schema : undefined;
}

export interface ToolMode {
  /** Names of the offered function tools (empty when none). */
  names: string[];
  /** 'none' when no tools or tool_choice 'none'; a name when a specific function is forced. */
  choice: 'none' | 'auto' | 'required' | { name: string };
  /** True when the request set parallel_tool_calls: true. */
  parallel: boolean;
}

/**
 * The tool situation of a request.
 *
 * @example
 * toolMode({ model: 'x', messages: [] as never }) // { names: [], choice: 'none', parallel: false }
 */
export function toolMode(req: ChatRequest): ToolMode {
  const names = (req.tools ?? []).map((t) => t.function.name);
  const tc = req.tool_choice;
  let choice: ToolMode['choice'];
  if (names.length === 0 || tc === 'none') choice = 'none';
  else if (tc === undefined || tc === 'auto') choice = 'auto';
  else if (tc === 'required') choice = 'required';
  else choice = { name: tc.function.name };
  return { names, choice, parallel: req.parallel_tool_calls === true };
}

/** The parameters schema of an offered tool. */
export function toolParameters(req: ChatRequest, name: string): Record<string, unknown> | undefined {
  return req.tools?.find((t) => t.function.name === name)?.function.parameters;
}

/**
 * Numbers written in a text, in order (integers, decimals, exponents, thousands separators
 * are not supported).
 *
 * @example
 * numbersIn('x = 9418.343 * 8.11, -2e3') // [9418.343, 8.11, -2000]
 */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g)) out.push(Number(m[0]));
  return out.filter((x) => Number.isFinite(x));
}

/** Lower-case words of a text (letters, digits, apostrophes, hyphens). */
export function wordsIn(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9][a-z0-9'-]*/g) ?? []).map((w) => w.replace(/'s$/, ''));
}
