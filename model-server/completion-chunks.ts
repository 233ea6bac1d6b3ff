/**
 * A completion as OpenAI streams it: `chat.completion.chunk` objects, one token per chunk. WHY
 * chunks built from the finished completion: a streamed answer must be the same answer — the
 * same content, tool calls, finish reasons, ids and usage — so a client that assembles the
 * chunks gets exactly what `stream: false` returns (grove's tests hold it to that).
 */
import type { ChatCompletionBody, CompletionToolCall } from './completion';
import type { FinishReason } from './types';

/** What a streamed choice adds in one chunk (OpenAI's `delta`). */
export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: null;
  tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }>;
}

export interface ChatCompletionChunkBody {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{ index: number; delta: ChunkDelta; logprobs: null; finish_reason: FinishReason | null }>;
  /** Only with `stream_options.include_usage`: null on every chunk but the last, which has no choices. */
  usage?: ChatCompletionBody['usage'] | null;
}

/** One chunk to send, and whether it carries a token (tokens are what per-token delays and holds count). */
export interface PlannedChunk {
  chunk: ChatCompletionChunkBody;
  token: boolean;
}

/** Characters per streamed token: the server counts ceil(chars / 4) tokens (`approxTokens`), so it sends 4 characters a chunk. */
const TOKEN_CHARS = 4;
/**
 * The most chunks a choice's tokens are sent in. Past it (an answer of more than 2,048 tokens) a
 * chunk carries several tokens, as servers that batch tokens send them: a 3 MB answer of 786,000
 * one-token chunks would be 200 MB of events, where a model writing it would take hours anyway.
 */
export const MAX_CHUNKS_PER_CHOICE = 2_048;

/**
 * A text cut into the pieces sent one per chunk: 4 characters each (whole code points, so no
 * piece ends inside a surrogate pair).
 *
 * @example
 * tokenPieces('Hello, world'); // ['Hell', 'o, w', 'orld']
 */
export function tokenPieces(text: string): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += TOKEN_CHARS) out.push(points.slice(i, i + TOKEN_CHARS).join(''));
  return out;
}

/** The chunk frame of a completion: its id, model and fingerprint, on every chunk. */
export function chunkFrame(body: Pick<ChatCompletionBody, 'id' | 'created' | 'model' | 'system_fingerprint'>, includeUsage: boolean) {
  return (choices: ChatCompletionChunkBody['choices'], usage?: ChatCompletionBody['usage']): ChatCompletionChunkBody => ({
    id: body.id,
    object: 'chat.completion.chunk',
    created: body.created,
    model: body.model,
    system_fingerprint: body.system_fingerprint,
    choices,
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
}

/** The first chunk of a choice: its role, and `content: null` for an answer that has none (tool calls only), as OpenAI sends it. */
export function roleDelta(index: number, content: string | null): ChatCompletionChunkBody['choices'][number] {
  return { index, delta: { role: 'assistant', content: content === null ? null : '', refusal: null }, logprobs: null, finish_reason: null };
}

/**
 * Every chunk of a completion, in order: each choice's role; then its tokens — content, then
 * each tool call (its id and name first, then its arguments a piece at a time) — the choices
 * taking turns token by token as OpenAI interleaves them (several tokens a chunk past
 * `MAX_CHUNKS_PER_CHOICE`); each choice's finish reason; and the
 * usage chunk when asked for. `sent[i]` characters of choice i's content were sent already (a
 * live model streamed them as it wrote): only the rest is planned, and no role chunk for it.
 *
 * @example
 * const plan = planChunks(completion, { includeUsage: true });
 * plan.filter((p) => p.token).length; // the tokens a per-token delay applies to
 */
export function planChunks(body: ChatCompletionBody, opts: { includeUsage: boolean; sent?: number[] }): PlannedChunk[] {
  const frame = chunkFrame(body, opts.includeUsage);
  const sent = opts.sent ?? [];
  const plan: PlannedChunk[] = [];
  const fresh = body.choices.filter((c) => sent[c.index] === undefined);
  if (fresh.length > 0) plan.push({ chunk: frame(fresh.map((c) => roleDelta(c.index, c.message.content))), token: false });
  const queues = body.choices.map((c) => choiceTokens(c.index, (c.message.content ?? '').slice(sent[c.index] ?? 0), c.message.tool_calls ?? []));
  for (let round = 0; queues.some((q) => round < q.length); round++) {
    for (const q of queues) if (round < q.length) plan.push({ chunk: frame([q[round]!]), token: true });
  }
  for (const c of body.choices) plan.push({ chunk: frame([{ index: c.index, delta: {}, logprobs: null, finish_reason: c.finish_reason }]), token: false });
  if (opts.includeUsage) plan.push({ chunk: frame([], body.usage), token: false });
  return plan;
}

function choiceTokens(index: number, content: string, calls: CompletionToolCall[]): ChatCompletionChunkBody['choices'] {
  const delta = (d: ChunkDelta) => ({ index, delta: d, logprobs: null, finish_reason: null });
  const contentPieces = tokenPieces(content);
  const argPieces = calls.map((c) => tokenPieces(c.function.arguments));
  const total = contentPieces.length + calls.length + argPieces.reduce((n, p) => n + p.length, 0);
  const per = Math.ceil(total / MAX_CHUNKS_PER_CHOICE); // tokens a chunk carries: 1 unless the answer is very long
  const out = grouped(contentPieces, per).map((piece) => delta({ content: piece }));
  calls.forEach((call, j) => {
    out.push(delta({ tool_calls: [{ index: j, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of grouped(argPieces[j]!, per)) out.push(delta({ tool_calls: [{ index: j, function: { arguments: piece } }] }));
  });
  return out;
}

/** Pieces joined `per` at a time. */
function grouped(pieces: string[], per: number): string[] {
  if (per <= 1) return pieces;
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i += per) out.push(pieces.slice(i, i + per).join(''));
  return out;
}

/**
 * The SSE text of chunks: `data: <json>` per chunk and the closing `data: [DONE]`.
 *
 * @example
 * sseText(planChunks(completion, { includeUsage: false }).map((p) => p.chunk));
 */
export function sseText(chunks: ChatCompletionChunkBody[]): string {
  return `${chunks.map(sseEvent).join('')}${SSE_DONE}`;
}

/** One server-sent event carrying `value` as JSON. */
export function sseEvent(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
