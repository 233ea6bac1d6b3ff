import { AgentInputSchema } from '../agents/agent-options';
import { finalAnswer, type AgentResult } from '../agents/agent-result';
import type { AgentNode } from '../agents/agent-node';
import { CodeFixerInputSchema, type CodeFixerResult } from '../code/code-fixer-input';
import { extractCode } from '../code/extract-code';
import { materialize, type ConversationDelta } from '../conversation/delta';
import { messageText } from '../schemas/messages';
import { SampleTree } from '../tree/sample-tree';
import { notRecomputable, quote, recomputed, type ClaimCheck } from './claims';
import { CODE_TESTS_EVALUATOR, evaluatorVerdict } from './verdict';

/**
 * Re-checks what a search agent's result claims, from its input and stored result: the answer is
 * the best trajectory's, a solution scores at least the threshold and has a finished answer, the
 * score is the best node's in the stored tree, and the verdict names the run's evaluator. The
 * evaluation itself is not recomputed: an LLM judge's score is a model's opinion; a custom or
 * `code-tests` evaluator is code that runs on the workers (with the sandbox), which
 * `grove verify` does not run — it says so.
 *
 * @example
 * recheckAgent(input, result).filter((c) => c.holds === false);
 */
export function recheckAgent(rawInput: unknown, result: AgentResult): ClaimCheck[] {
  const input = AgentInputSchema.parse(rawInput);
  const claims: ClaimCheck[] = [];
  const answer = finalAnswer(result.messages);
  if (result.answer !== undefined) {
    claims.push(recomputed('answer is the best trajectory\'s', result.answer === answer, `the last answer of the stored trajectory is ${quote(answer ?? '(none)')}`));
  }
  if (result.isSolution) {
    const enough = result.score >= input.threshold;
    claims.push(recomputed('isSolution: true', enough && result.answer !== undefined, `score ${result.score} ${enough ? '≥' : '<'} threshold ${input.threshold}; ${result.answer === undefined ? 'no finished answer' : 'a finished answer'}`));
  }
  if (result.tree) {
    const tree = SampleTree.fromJSON<AgentNode>(result.tree);
    const best = tree.findNode(result.bestNodeId);
    claims.push(recomputed(`score ${result.score}`, best !== undefined && (best.score ?? 0) === result.score, best ? `node n${best.id} of the stored tree scores ${best.score ?? 0}` : `the stored tree has no node n${result.bestNodeId}`));
  }
  const evaluator = input.evaluator.name;
  const expected = evaluatorVerdict(evaluator, {}, result.score);
  if (result.verdict) {
    const holds = result.verdict.by === expected.by && result.verdict.verified === expected.verified && (result.verdict.evaluator ?? evaluator) === evaluator;
    claims.push(recomputed(`verdict: by ${result.verdict.by}${result.verdict.verified ? ', verified' : ''}`, holds, `the run's evaluator is ${evaluator}${evaluator === CODE_TESTS_EVALUATOR ? ` and its score ${result.score} ${result.score >= 1 ? 'is every test passed' : 'is not every test passed'}` : ''}`));
  }
  claims.push(notRecomputable(`score ${result.score} (the evaluation)`, evaluationNote(evaluator, result)));
  return claims;
}

/** Why an agent's evaluation cannot be recomputed here. */
function evaluationNote(evaluator: string, result: AgentResult): string {
  const verdict = result.verdict;
  if (evaluator === 'llm') {
    const who = verdict?.model ? `${verdict.model}${verdict.selfJudged ? ', the model that wrote the answer' : ''}` : 'an LLM';
    return `judged by ${who}: a model's opinion, not recomputable`;
  }
  if (evaluator === CODE_TESTS_EVALUATOR) return 'tests run in the sandbox on a worker (evaluator code-tests): grove verify does not run code; run the answer with `grove exec` to see for yourself';
  return `decided by the custom evaluator ${evaluator}, code registered on the workers: grove verify does not run it`;
}

/**
 * Re-checks what a code fixer's result claims: `success` is "the chosen attempt ran without
 * error and passed every test", the chosen attempt is the returned sample's, and its code is
 * what that sample's answer holds. The tests are not run again (they ran in the sandbox on a
 * worker; `grove exec` runs code locally).
 *
 * @example
 * recheckCodeFixer(input, result).every((c) => c.holds !== false);
 */
export function recheckCodeFixer(rawInput: unknown, result: CodeFixerResult): ClaimCheck[] {
  const input = CodeFixerInputSchema.parse(rawInput);
  const claims: ClaimCheck[] = [];
  const outcome = result.outcome;
  const tests = outcome?.tests;
  // A pass needs every assertion to hold and the tests to have run to their end (code that stops them early passes nothing).
  const allPassed = outcome?.ok === true && (tests === undefined || (tests.passed === tests.total && tests.completed !== false));
  const tally = tests ? `, ${tests.passed}/${tests.total} tests${tests.completed === false ? ', stopped before their end' : ''}` : '';
  claims.push(recomputed(`success: ${result.success}`, result.success === allPassed, outcome ? `the chosen attempt: ${outcome.ok ? 'ran without error' : `failed (${outcome.error?.kind ?? 'error'})`}${tally}` : 'no attempt was run'));
  const attempt = result.attempts.find((a) => a.sampleId === result.activeSampleId);
  if (outcome) claims.push(recomputed(`attempt ${result.activeSampleId} is the chosen one`, attempt?.ok === outcome.ok, attempt ? `attempt of sample ${attempt.sampleId}: ${attempt.ok ? 'ok' : 'failed'}` : `no attempt of sample ${result.activeSampleId}`));
  const tree = SampleTree.fromJSON<ConversationDelta>(result.tree);
  if (tree.has(result.activeSampleId)) {
    const conversation = materialize(tree, result.activeSampleId);
    const last = conversation[conversation.length - 1];
    const code = last?.role === 'assistant' ? extractCode(messageText(last), input.language).code : undefined;
    claims.push(recomputed('code is the returned sample\'s', code === result.code, `extracted from sample ${result.activeSampleId}'s answer`));
  }
  const layers = outcome?.layers?.length ? ` with ${outcome.layers.join(', ')}` : '';
  claims.push(notRecomputable('the tests\' tally', `tests ran in the sandbox on a worker${layers}: grove verify does not run code (\`grove exec\` runs it locally)`));
  return claims;
}
