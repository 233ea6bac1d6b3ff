import { ZERO_USAGE } from '../../core/budget';
import type { LlmSettingsInput } from '../../core/schemas/llm-settings';
import { LlmSettingsSchema } from '../../core/schemas/llm-settings';
import type { Usage } from '../../core/schemas/messages';
import { parseInput } from '../../core/schemas/parse-input';
import { llmPort } from '../lib/llm-port';

/**
 * A lazy embedding call (the seeds' `AIEmbed`). Embeddings have no conversation to fix, so
 * this call has no sample tree: `run()` fetches the vectors (one activity) and `output` holds
 * them, in the order of the texts.
 *
 * @example
 * const emb = aiEmbed(['apple', 'pear'], { model: 'text-embedding-3-small' });
 * await emb.run();
 * emb.output![0].length; // the embedding dimension
 */
export class AIEmbedCall {
  output?: number[][];
  usage: Usage = ZERO_USAGE;
  success?: boolean;

  constructor(
    readonly texts: string[],
    readonly opts: { model?: string; dimensions?: number; llm?: LlmSettingsInput } = {},
  ) {}

  async run(): Promise<this> {
    const llm = llmPort(parseInput(LlmSettingsSchema, this.opts.llm ?? {}, 'llm settings'));
    const result = await llm.embed(
      { texts: this.texts, model: this.opts.model, dimensions: this.opts.dimensions },
      `embed ${this.texts.length} text${this.texts.length === 1 ? '' : 's'}`,
    );
    this.output = result.embeddings;
    this.usage = result.usage;
    this.success = true;
    return this;
  }
}

export function aiEmbed(texts: string | string[], opts: { model?: string; dimensions?: number; llm?: LlmSettingsInput } = {}): AIEmbedCall {
  return new AIEmbedCall(typeof texts === 'string' ? [texts] : texts, opts);
}
