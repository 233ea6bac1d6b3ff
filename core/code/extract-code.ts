import type { CodeLanguage } from './code-outcome';

/** Fence tags each language's blocks may carry (a block with no tag is taken too). */
const TAGS: Record<CodeLanguage, string[]> = {
  js: ['js', 'javascript', 'jsx', 'node', 'mjs', 'cjs'],
  ts: ['ts', 'typescript', 'tsx', 'js', 'javascript'],
  python: ['py', 'python', 'python3'],
};

export interface ExtractedCode {
  /** The code to run: every block in the language (or untagged), in order, joined by a blank line; undefined when none. */
  code?: string;
  /** How many fenced blocks the answer had, and how many were used. */
  blocks: number;
  used: number;
}

/**
 * Pulls the code out of a model's answer, like the seeds' `AICode` does with Julia: every fenced
 * block (```lang … ```) tagged with the language or untagged, concatenated in order (models
 * often split a solution into a helper block and a main block); blocks in other languages
 * (```text, ```bash, ```output) are left out. With no fence at all, an answer that *looks* like
 * code (it parses as nothing else and has a definition on its first line) is taken whole. No
 * code is itself an outcome: the fixer tells the model to fence its code.
 *
 * @example
 * extractCode('Here:\n```python\ndef f(x):\n    return x\n```\nDone.', 'python').code  // 'def f(x):\n    return x'
 */
export function extractCode(answer: string, language: CodeLanguage): ExtractedCode {
  const fence = /```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;
  const blocks: Array<{ tag: string; body: string }> = [];
  for (const m of answer.matchAll(fence)) blocks.push({ tag: m[1]!.toLowerCase(), body: m[2]!.replace(/\s+$/, '') });
  if (blocks.length > 0) {
    const wanted = blocks.filter((b) => b.tag === '' || TAGS[language].includes(b.tag)).filter((b) => b.body.trim() !== '');
    return { code: wanted.length ? wanted.map((b) => b.body).join('\n\n') : undefined, blocks: blocks.length, used: wanted.length };
  }
  const trimmed = answer.trim();
  const looksLikeCode = language === 'python'
    ? /^(def |class |import |from |@)/m.test(trimmed.split('\n')[0] ?? '')
    : /^(function |const |let |var |class |export |import |async function )/.test(trimmed);
  return looksLikeCode ? { code: trimmed, blocks: 0, used: 1 } : { blocks: 0, used: 0 };
}
