/**
 * Deterministic embeddings. WHY not pure random vectors: grove's AIEmbed users compare texts,
 * so texts that share words should be closer than unrelated ones. Each lower-case word adds
 * ±1 to a dimension chosen by its hash (feature hashing); a small component drawn from a hash
 * of the whole text (weight 0.25 per dimension) keeps distinct texts distinct; the result is
 * scaled to unit length and rounded to float32 (what the API's base64 encoding carries).
 */
import { sha256Hex } from './hashing';
import { wordsIn } from './policies/conversation';
import { seededRng } from './rng';
import type { EmbeddingsRequest } from './request-schema';
import { approxTokens } from './token-count';

export const DEFAULT_EMBEDDING_DIMENSIONS = 16;

/**
 * A unit vector for a text.
 *
 * @example
 * embedText('apple pie', 16).length // 16
 */
export function embedText(text: string, dimensions: number = DEFAULT_EMBEDDING_DIMENSIONS): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const w of wordsIn(text)) {
    const h = sha256Hex(`word|${w}`);
    const idx = parseInt(h.slice(0, 8), 16) % dimensions;
    v[idx] += parseInt(h.slice(8, 9), 16) & 1 ? 1 : -1;
  }
  const rng = seededRng(`text|${text}`);
  for (let i = 0; i < dimensions; i++) v[i] += 0.25 * (rng() * 2 - 1);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => Math.fround(x / norm));
}

/** Float32 little-endian bytes in base64, as OpenAI's `encoding_format: 'base64'`. */
export function toBase64Float32(v: readonly number[]): string {
  const buf = Buffer.alloc(v.length * 4);
  v.forEach((x, i) => buf.writeFloatLE(x, i * 4));
  return buf.toString('base64');
}

/** The texts of an embeddings input (token arrays are joined with spaces). */
export function embeddingInputs(input: EmbeddingsRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && typeof input[0] === 'number') return [(input as number[]).join(' ')];
  return (input as (string | number[])[]).map((x) => (typeof x === 'string' ? x : x.join(' ')));
}

export interface EmbeddingsBody {
  object: 'list';
  data: { object: 'embedding'; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/**
 * The embeddings response for a request.
 *
 * @example
 * buildEmbeddings({ model: 'm', input: ['a', 'b'] }).data.length // 2
 */
export function buildEmbeddings(req: EmbeddingsRequest): EmbeddingsBody {
  const dims = req.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
  const texts = embeddingInputs(req.input);
  const data = texts.map((t, index) => {
    const v = embedText(t, dims);
    return { object: 'embedding' as const, index, embedding: req.encoding_format === 'base64' ? toBase64Float32(v) : v };
  });
  const tokens = texts.reduce((s, t) => s + approxTokens(t), 0);
  return { object: 'list', data, model: req.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}
