import { z } from 'zod';
import type { ChatParams } from '../schemas/chat-params';
import { formatIssuePath } from '../schemas/errors';
import type { AssistantMessage } from '../schemas/messages';

export type ParsedOutput<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * How an AI call turns the model's answer into its output, and which request parameters it
 * needs for that (e.g. a JSON schema response format). A malformed answer is an `error` string,
 * never an exception: it is what airetry feeds back to the model.
 */
export interface OutputParser<T> {
  /** Extra chat parameters the call always sends. */
  params?: ChatParams;
  parse(message: AssistantMessage): ParsedOutput<T>;
}

/** The answer's text (`''` for an answer with no text). */
export const textOutput: OutputParser<string> = {
  parse: (message) => ({ ok: true, value: message.content ?? '' }),
};

export interface JsonOutputOptions {
  /** Name of the schema as the provider sees it (letters, digits, _ and -). */
  name?: string;
  /** 'json_schema' (structured output, default) or 'tool' (function calling, as the seeds' aiextract). */
  mode?: 'json_schema' | 'tool';
  /**
   * Accept an answer wrapped in a ```json fence (models without structured output often do
   * that), and quote the JSON Schema (up to 800 characters) in the feedback of an answer that
   * does not match it. Default false: runs recorded before keep their behaviour.
   */
  lenient?: boolean;
}

/** The JSON inside a ```json (or bare ```) fence, else the text itself. */
export function unfenceJson(text: string): string {
  const m = /```(?:json|JSON)?[^\n]*\n([\s\S]*?)```/.exec(text);
  return m ? m[1]!.trim() : text;
}

/**
 * A structured output: the zod schema becomes the JSON Schema the model is asked to follow,
 * and the answer is parsed and validated with the same schema.
 *
 * @example
 * const Food = z.object({ name: z.string(), adjectives: z.array(z.string()).optional() });
 * const parser = jsonOutput(Food, { name: 'Food' });
 */
export function jsonOutput<S extends z.ZodType>(schema: S, opts: JsonOutputOptions = {}): OutputParser<z.output<S>> {
  const name = opts.name ?? 'output';
  const jsonSchema = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  const params: ChatParams =
    opts.mode === 'tool'
      ? {
          tools: [{ type: 'function', function: { name, description: `Extract the ${name}.`, parameters: jsonSchema } }],
          tool_choice: { type: 'function', function: { name } },
        }
      : { response_format: { type: 'json_schema', json_schema: { name, schema: jsonSchema } } };
  return {
    params,
    parse(message) {
      const text = opts.mode === 'tool' ? message.tool_calls?.[0]?.function.arguments : message.content;
      if (text == null || text.trim() === '') return { ok: false, error: 'the answer is empty; answer with a JSON object' };
      const schemaHint = opts.lenient ? ` The answer must be JSON matching this JSON Schema: ${truncated(JSON.stringify(jsonSchema), 800)}` : '';
      let json: unknown;
      try {
        json = JSON.parse(opts.lenient ? unfenceJson(text) : text);
      } catch (err) {
        return { ok: false, error: `the answer is not valid JSON (${(err as Error).message}).${schemaHint}` };
      }
      const result = schema.safeParse(json);
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, error: `${result.error.issues.map((i) => `${formatIssuePath('', i.path).replace(/^\./, '') || '(root)'}: ${i.message}`).join('; ')}${schemaHint ? `.${schemaHint}` : ''}` };
    },
  };
}

function truncated(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * One of fixed choices (the seeds' aiclassify). The answer matches a choice when, trimmed and
 * ignoring case and trailing punctuation, it equals the choice; failing that, when exactly one
 * choice appears in it as a word.
 */
export function choiceOutput<C extends string>(choices: readonly C[]): OutputParser<C> {
  const norm = (s: string) => s.trim().toLowerCase().replace(/[.!?"'`]+$/g, '').replace(/^["'`]+/, '');
  return {
    params: { max_tokens: 16 },
    parse(message) {
      const answer = norm(message.content ?? '');
      const exact = choices.find((c) => norm(c) === answer);
      if (exact !== undefined) return { ok: true, value: exact };
      const mentioned = choices.filter((c) => new RegExp(`(^|\\W)${escapeRegExp(norm(c))}(\\W|$)`).test(answer));
      if (mentioned.length === 1) return { ok: true, value: mentioned[0] };
      return { ok: false, error: `the answer "${message.content ?? ''}" is not exactly one of: ${choices.join(', ')}` };
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
