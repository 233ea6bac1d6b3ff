import type OpenAI from 'openai';

/**
 * What an OpenAI-compatible server was found to refuse or ignore, per endpoint and model.
 * Learned from its answers (never guessed from its name), remembered by the worker for its
 * lifetime, and settable up front with `GROVE_LLM_COMPAT` (comma-separated names below).
 */
export interface ProviderQuirks {
  /** Assistant turns with tool calls must carry `content: ""` (llama.cpp fails on `null`). */
  emptyContentForToolCalls?: boolean;
  /** `response_format: json_schema` is refused: send `json_object` with the schema. */
  noJsonSchema?: boolean;
  /** `json_object` (with or without schema) is refused too: ask in the prompt, validate locally. */
  noJsonObject?: boolean;
  /** `tool_choice: "required"` is refused: send `auto` and ask in the prompt. */
  noRequiredToolChoice?: boolean;
  /** `n` is ignored: ask for one choice per request, in parallel. */
  noN?: boolean;
  /** `stream: true` is refused, ignored, or streamed without usage: ask for whole answers. */
  noStream?: boolean;
}
export type QuirkName = keyof ProviderQuirks;
export const QUIRK_NAMES: QuirkName[] = ['emptyContentForToolCalls', 'noJsonSchema', 'noJsonObject', 'noRequiredToolChoice', 'noN', 'noStream'];

type Body = OpenAI.ChatCompletionCreateParamsNonStreaming;

/**
 * The quirks each endpoint+model has shown, shared by every call a worker makes.
 *
 * @example
 * const compat = new ProviderCompat(process.env.GROVE_LLM_COMPAT);
 * compat.quirks(baseURL, model).noN  // true once a server answered n=3 with one choice
 */
export class ProviderCompat {
  private readonly known = new Map<string, ProviderQuirks>();
  private readonly preset: ProviderQuirks;

  constructor(preset?: string) {
    this.preset = {};
    for (const name of (preset ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!QUIRK_NAMES.includes(name as QuirkName)) throw new Error(`GROVE_LLM_COMPAT: unknown quirk "${name}" (known: ${QUIRK_NAMES.join(', ')})`);
      this.preset[name as QuirkName] = true;
    }
  }

  quirks(baseURL: string, model: string): ProviderQuirks {
    const key = `${baseURL}|${model}`;
    let q = this.known.get(key);
    if (!q) this.known.set(key, (q = { ...this.preset }));
    return q;
  }
}

/**
 * The request as this server accepts it: the same intent, adapted to the quirks it has shown.
 * Structured output degrades json_schema → json_object + schema → an instruction in the prompt
 * (the answer is still validated by grove, and fed back when it does not match).
 *
 * @example
 * adaptRequest(body, { noJsonSchema: true }).response_format  // { type: 'json_object', schema: {...} }
 */
export function adaptRequest(body: Body, q: ProviderQuirks): Body {
  let out: Body = { ...body };
  if (q.emptyContentForToolCalls) {
    out.messages = out.messages.map((m) => (m.role === 'assistant' && m.tool_calls?.length && (m.content === null || m.content === undefined) ? { ...m, content: '' } : m));
  }
  const rf = out.response_format as { type: string; json_schema?: { schema?: unknown }; schema?: unknown } | undefined;
  if (rf && rf.type !== 'text') {
    const schema = rf.type === 'json_schema' ? rf.json_schema?.schema : rf.schema;
    if (q.noJsonObject) {
      const { response_format: _drop, ...rest } = out;
      out = instruct(rest as Body, `Answer with JSON only${schema ? `, matching this JSON Schema:\n${JSON.stringify(schema)}` : ''}.`);
    } else if (q.noJsonSchema && rf.type === 'json_schema') {
      out.response_format = (schema ? { type: 'json_object', schema } : { type: 'json_object' }) as never;
    }
  }
  if (q.noRequiredToolChoice && out.tool_choice === 'required') {
    out = instruct({ ...out, tool_choice: 'auto' }, 'You must call one of the tools now; do not answer in text.');
  }
  return out;
}

/** Adds an instruction as a system message at the end (the last thing the model reads before answering). */
function instruct(body: Body, text: string): Body {
  return { ...body, messages: [...body.messages, { role: 'system', content: text }] };
}

/**
 * Which quirk a refusal points at, from the provider's message (4xx or a validation error sent
 * as 5xx), given what the request contained. Undefined when the refusal is about something else.
 *
 * @example
 * quirkFromRefusal("Input should be 'text' or 'json_object'", body, {})  // 'noJsonSchema'
 * quirkFromRefusal('Streaming is not supported', body, {}, true)       // 'noStream'
 */
export function quirkFromRefusal(message: string, body: Body, q: ProviderQuirks, streamed = false): QuirkName | undefined {
  // A refusal that names streaming is about streaming, whatever else the request held.
  if (streamed && !q.noStream && /\bstream(?:ing|_options)?\b/i.test(message)) return 'noStream';
  const rf = body.response_format as { type?: string } | undefined;
  if (rf?.type === 'json_schema' && !q.noJsonSchema && /response_format|json_schema|'json_object'/i.test(message)) return 'noJsonSchema';
  if (rf?.type === 'json_object' && !q.noJsonObject && /response_format|json_object|schema/i.test(message)) return 'noJsonObject';
  if (body.tool_choice === 'required' && !q.noRequiredToolChoice && /tool_choice|required/i.test(message)) return 'noRequiredToolChoice';
  const nullContent = body.messages.some((m) => m.role === 'assistant' && m.tool_calls?.length && (m.content === null || m.content === undefined));
  if (nullContent && !q.emptyContentForToolCalls && /NoneType|null|content/i.test(message)) return 'emptyContentForToolCalls';
  return undefined;
}

/**
 * A 5xx whose body is really a request validation error (pydantic/FastAPI, "invalid", "not
 * supported"...): retrying the identical request cannot help.
 *
 * @example
 * isValidationMessage('1 validation error for CreateChatCompletionRequest ...')  // true
 */
export function isValidationMessage(message: string): boolean {
  return /validation error|Input should be|is not supported|not supported|unsupported|invalid (value|type|request)|must be (a|an|one of)|unrecognized|can only concatenate|NoneType/i.test(message);
}

let shared: ProviderCompat | undefined;

/**
 * The worker's one compatibility memory (preset from `GROVE_LLM_COMPAT`), shared by the model and
 * evaluator activities so a quirk learned by one is known to the other.
 *
 * @example
 * sharedCompat().quirks('http://127.0.0.1:8080/v1', 'smollm2')
 */
export function sharedCompat(): ProviderCompat {
  return (shared ??= new ProviderCompat(process.env.GROVE_LLM_COMPAT));
}
