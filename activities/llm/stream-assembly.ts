import type OpenAI from 'openai';

/** What a streamed choice says so far: its text and the tool calls begun. */
export interface PartialAnswer {
  content: string | null;
  refusal: string | null;
  toolCalls: Array<{ name: string; arguments: string }>;
}

interface ChoiceState {
  content: string | null;
  refusal: string | null;
  calls: Map<number, { id: string; type: 'function'; name: string; arguments: string }>;
  finish: OpenAI.ChatCompletion.Choice['finish_reason'] | null;
}

/** The most characters a streamed answer may grow to (every choice together, 16 more for each choice and tool call it opens) before it is stopped. */
export const MAX_STREAMED_CHARS = 64 * 1024 * 1024;
/** What opening a choice or a tool call counts towards `MAX_STREAMED_CHARS`: a stream of empty calls is bounded too. */
const OPENING_CHARS = 16;

/** A stream that cannot be a completion (an index that is not a whole number, an answer past `MAX_STREAMED_CHARS`). */
export class MalformedStreamError extends Error {
  override name = 'MalformedStreamError';
}

/**
 * Puts a streamed chat completion back together: each chunk's deltas appended per choice (by its
 * `index`) and per tool call (by its `index`: the id, type and name as given, the arguments
 * appended), finish reasons and the usage chunk kept. The result has the shape of the
 * completion `stream: false` returns, so everything after the request is the same code either
 * way — `content` is null unless some delta carried content (an answer of tool calls only stays
 * null, as it is unstreamed), `refusal` likewise.
 *
 * @example
 * const assembly = new StreamAssembly();
 * for await (const chunk of stream) assembly.add(chunk);
 * const completion = assembly.completion(); // OpenAI.ChatCompletion
 */
export class StreamAssembly {
  private readonly choices = new Map<number, ChoiceState>();
  private frame: { id: string; created: number; model: string; system_fingerprint?: string } | undefined;
  private usage: OpenAI.CompletionUsage | undefined;
  private chars = 0;

  /** Adds one chunk; throws `MalformedStreamError` for a chunk no completion could contain. */
  add(chunk: OpenAI.ChatCompletionChunk): void {
    this.frame ??= { id: chunk.id, created: chunk.created, model: chunk.model, ...(chunk.system_fingerprint ? { system_fingerprint: chunk.system_fingerprint } : {}) };
    if (chunk.usage) this.usage = chunk.usage;
    for (const c of chunk.choices ?? []) {
      const choice = this.choice(c.index);
      const delta = c.delta ?? {};
      if (typeof delta.content === 'string') choice.content = this.grow(choice.content, delta.content);
      if (typeof delta.refusal === 'string') choice.refusal = this.grow(choice.refusal, delta.refusal);
      for (const t of delta.tool_calls ?? []) {
        const index = checkedIndex(t.index, 'tool call');
        let call = choice.calls.get(index);
        if (!call) {
          this.count(OPENING_CHARS);
          choice.calls.set(index, (call = { id: '', type: 'function', name: '', arguments: '' }));
        }
        if (t.id) call.id = t.id;
        if (t.function?.name) call.name = t.function.name;
        if (t.function?.arguments) call.arguments = this.grow(call.arguments, t.function.arguments)!;
      }
      if (c.finish_reason) choice.finish = c.finish_reason;
    }
  }

  /** Whether any chunk arrived. */
  get started(): boolean {
    return this.frame !== undefined;
  }

  /** Whether the server sent the usage (`stream_options.include_usage`). */
  get hasUsage(): boolean {
    return this.usage !== undefined;
  }

  /** Choices that have not said how they finished: a stream cut short. */
  unfinished(): number[] {
    return [...this.choices].filter(([, c]) => c.finish === null).map(([i]) => i);
  }

  /** Each choice as it stands, by index: what a reader of the stream sees. */
  partials(): Map<number, PartialAnswer> {
    const out = new Map<number, PartialAnswer>();
    for (const [i, c] of this.sorted()) out.set(i, { content: c.content, refusal: c.refusal, toolCalls: [...sortedCalls(c)].map((t) => ({ name: t.name, arguments: t.arguments })) });
    return out;
  }

  /** The completion the chunks make, in `stream: false`'s shape. */
  completion(): OpenAI.ChatCompletion {
    const choices = this.sorted().map(([index, c]): OpenAI.ChatCompletion.Choice => {
      const calls = sortedCalls(c);
      const message: OpenAI.ChatCompletionMessage = { role: 'assistant', content: c.content, refusal: c.refusal };
      if (calls.length > 0) message.tool_calls = calls.map((t) => ({ id: t.id, type: t.type, function: { name: t.name, arguments: t.arguments } }));
      return { index, message, finish_reason: c.finish ?? 'stop', logprobs: null };
    });
    const frame = this.frame ?? { id: '', created: 0, model: '' };
    return { ...frame, object: 'chat.completion', choices, ...(this.usage ? { usage: this.usage } : {}) };
  }

  private choice(index: number): ChoiceState {
    const i = checkedIndex(index, 'choice');
    let c = this.choices.get(i);
    if (!c) {
      this.count(OPENING_CHARS);
      this.choices.set(i, (c = { content: null, refusal: null, calls: new Map(), finish: null }));
    }
    return c;
  }

  private grow(text: string | null, piece: string): string {
    this.count(piece.length);
    return (text ?? '') + piece;
  }

  private count(chars: number): void {
    this.chars += chars;
    if (this.chars > MAX_STREAMED_CHARS) throw new MalformedStreamError(`the streamed answer grew past ${MAX_STREAMED_CHARS} characters`);
  }

  private sorted(): Array<[number, ChoiceState]> {
    return [...this.choices].sort((a, b) => a[0] - b[0]);
  }
}

function sortedCalls(c: ChoiceState) {
  return [...c.calls].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
}

function checkedIndex(index: unknown, what: string): number {
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
    throw new MalformedStreamError(`a chunk named ${what} index ${JSON.stringify(index)} (expected a whole number from 0)`);
  }
  return index;
}
