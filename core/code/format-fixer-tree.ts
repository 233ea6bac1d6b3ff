import type { ConversationDelta } from '../conversation/delta';
import { formatSamples } from '../format-tree';
import { messageText } from '../schemas/messages';
import type { SampleTree } from '../tree/sample-tree';
import type { CodeLanguage } from './code-outcome';
import { extractCode } from './extract-code';

/** One attempt as a code fixer's result lists it: its sample and what the sandbox said. */
export interface FixerAttempt {
  sampleId: number;
  ok: boolean;
  kind?: string;
  tests?: { passed: number; total: number };
  /** Its answer stopped at the token limit. */
  cut?: boolean;
}

/**
 * A code fixer's sample tree with what the sandbox said of each attempt — the verdict of every
 * sample comes from running it with the tests, so that is what each line shows, rather than a
 * preview of code that reads as nothing on one line:
 * ```
 * SampleNode(id: 0, stats: 1/5, score: 0.2, length: 2)
 * ├─ SampleNode(id: 1, stats: 0/1, score: 0.45, length: 3) → test failed: 1/3 tests passed
 * └─ SampleNode(id: 2, stats: 1/3, score: 1.2, length: 3) → test failed: 2/3 tests passed
 *    └─ SampleNode(id: 3, stats: 1/1, score: 2.48, length: 5) → passed: 3/3 tests (returned)
 * ```
 * A sample the fixer never ran (its round ended on another sample's pass) says `not run`; an
 * answer the token limit cut says so.
 *
 * @example
 * formatFixerTree(SampleTree.fromJSON(result.tree), result.attempts, { activeSampleId: result.activeSampleId, language: 'python' });
 */
export function formatFixerTree(tree: SampleTree<ConversationDelta>, attempts: FixerAttempt[], opts: { activeSampleId?: number; language: CodeLanguage }): string {
  const byId = new Map(attempts.map((a) => [a.sampleId, a]));
  return formatSamples(tree, {
    label: (node) => {
      if (node.parent === null) return '';
      const mark = node.id === opts.activeSampleId ? ' (returned)' : '';
      const attempt = byId.get(node.id);
      if (!attempt) return `→ not run${mark}`;
      // A cut answer is said to be cut, and why: its error is the cut's as much as the model's.
      const cut = attempt.cut ? ' (its answer was cut: it reached max_tokens)' : '';
      if (!attempt.ok && !hasCode(tree, node.id, opts.language)) return `→ no ${opts.language} code in the answer${cut}${mark}`;
      return `→ ${attemptOutcome(attempt)}${cut}${mark}`;
    },
  });
}

/**
 * What the sandbox said of one attempt, in a few words.
 *
 * @example
 * attemptOutcome({ sampleId: 2, ok: false, kind: 'test', tests: { passed: 1, total: 3 } }); // 'test failed: 1/3 tests passed'
 */
export function attemptOutcome(attempt: FixerAttempt): string {
  const tally = attempt.tests ? `${attempt.tests.passed}/${attempt.tests.total} tests` : '';
  if (attempt.ok) return tally ? `passed: ${tally}` : 'ran without error (no tests)';
  const what = attempt.kind === 'test' ? 'test failed' : `${attempt.kind ?? 'unknown'} error`;
  return tally ? `${what}: ${tally} passed` : what;
}

/**
 * How many of a code fixer's attempts ran in the sandbox: those whose answer held code (an answer
 * without any is fed back at once, without a run).
 *
 * @example
 * sandboxRuns(SampleTree.fromJSON(result.tree), result.attempts, 'js'); // 6
 */
export function sandboxRuns(tree: SampleTree<ConversationDelta>, attempts: FixerAttempt[], language: CodeLanguage): number {
  return attempts.filter((a) => tree.findNode(a.sampleId) && hasCode(tree, a.sampleId, language)).length;
}

function hasCode(tree: SampleTree<ConversationDelta>, sampleId: number, language: CodeLanguage): boolean {
  const answer = tree.node(sampleId).data.add.at(-1);
  return answer !== undefined && extractCode(messageText(answer), language).code !== undefined;
}
