/**
 * Token counts approximated as ceil(characters / 4). WHY: budgets in grove count tokens, and a
 * deterministic, tokenizer-free rule keeps usage reproducible across runs and machines. It is
 * roughly right for English text with OpenAI tokenizers.
 */

/** @example approxTokens('abcde') // 2 */
export function approxTokens(chars: number | string): number {
  const n = typeof chars === 'string' ? chars.length : chars;
  return Math.ceil(n / 4);
}
