import { defineEvaluator, type EvaluatorDefinition } from '../../../../activities/evaluators';
import { EvaluationsFailedError, EVALUATIONS_BEFORE_GIVING_UP } from '../../../../core/agents/evaluation-failures';
import { checkMultiplication } from '../../../../examples/evaluators/multiplication-checker';
import { inProcessAgent, QUICKSTART, quickstartInput, searchInProcess } from '../../../../bench/lib/in-process-agent';
import { ConversationRefs } from '../../../../core/hash/conversation-refs';
import { formatSearchTree } from '../../../../core/agents/format-search-tree';
import { userMessage } from '../../../../core/schemas/messages';

/**
 * A custom evaluator's bad score fails that evaluation — the node records why and is never a
 * solution — not the search; a run whose every evaluation fails fails, naming the evaluator.
 */
/** A one-message trajectory as an evaluation's input carries it (refs and the messages to store). */
function trajectory() {
  const refs = new ConversationRefs();
  return refs.input(refs.addPath(null, undefined, [userMessage(QUICKSTART)]));
}

const checker = (name: string, score: (trajectory: Parameters<EvaluatorDefinition['run']>[0], i: number) => unknown): EvaluatorDefinition => {
  let calls = 0;
  return defineEvaluator({ name, run: (trajectory) => ({ score: score(trajectory, calls++) as number, reasoning: 'checked' }) });
};

test.each<[string, unknown]>([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['1.5 (above 1)', 1.5],
  ['-0.1 (below 0)', -0.1],
  ['"1" (not a number)', '1'],
  ['undefined', undefined],
])('a custom evaluator returning %s: that evaluation fails, saying why; the node is no solution', async (_case, bad) => {
  const env = inProcessAgent({ evaluators: [checker('bad-checker', () => bad)] });
  const result = await env.port.evaluate({ evaluator: { name: 'bad-checker' }, trajectory: trajectory() }, 'x');
  expect(result).toMatchObject({ score: 0, failed: expect.stringMatching(/^evaluator "bad-checker" returned score .*: a score must be a number in \[0, 1\]$/) });
});

test('a custom evaluator that throws: that evaluation fails, naming the evaluator and the error', async () => {
  const env = inProcessAgent({ evaluators: [defineEvaluator({ name: 'boom', run: () => { throw new Error('suite missing'); } })] });
  const result = await env.port.evaluate({ evaluator: { name: 'boom' }, trajectory: trajectory() }, 'x');
  expect(result).toMatchObject({ score: 0, failed: 'evaluator "boom" threw: suite missing' });
});

test('every other evaluation NaN: the search goes on; failed nodes say why, score 0, and none is a solution', async () => {
  // Even calls return NaN, odd ones the real check: the search still finds the solution the checker approves.
  const flaky = checker('flaky', (trajectory, i) => (i % 2 === 0 ? NaN : checkMultiplication(trajectory).score));
  const run = await searchInProcess(quickstartInput({ algorithm: 'mcts', evaluator: { name: 'flaky' }, seed: 1, budget: { maxCalls: 60 } }), {
    env: inProcessAgent({ evaluators: [flaky], seed: 1 }),
  });
  if (run.handover) throw new Error('no handover expected');
  const failed = run.state.tree.preorder().filter((n) => n.data.evaluationFailed !== undefined);
  expect(failed.length).toBeGreaterThan(0);
  expect(run.state.counters.evaluationFailures).toBe(failed.length);
  for (const node of failed) {
    expect(node.data.evaluationFailed).toMatch(/^evaluator "flaky" returned score NaN/);
    expect(node.score).toBe(0);
    expect(run.ctx.isSolution(node.id)).toBe(false);
  }
  expect(run.state.counters.evaluations).toBeGreaterThan(failed.length);
  expect(formatSearchTree(run.state.tree).match(/\[evaluation failed\]/g)).toHaveLength(failed.length);
});

test('a failed node is never a solution, even under a threshold of 0', async () => {
  const broken = checker('broken-half', (trajectory, i) => (i % 2 === 0 ? Infinity : checkMultiplication(trajectory).score));
  const run = await searchInProcess(quickstartInput({ algorithm: 'greedy', evaluator: { name: 'broken-half' }, threshold: 0, budget: { maxCalls: 30 } }), {
    env: inProcessAgent({ evaluators: [broken] }),
  });
  if (run.handover) throw new Error('no handover expected');
  expect(run.state.counters.evaluationFailures).toBeGreaterThan(0);
  expect(run.outcome.isSolution).toBe(true); // a node the evaluator did score
  expect(run.state.tree.node(run.outcome.bestId).data.evaluationFailed).toBeUndefined();
});

test(`every evaluation failing: the run fails after ${EVALUATIONS_BEFORE_GIVING_UP}, naming the evaluator and why`, async () => {
  const err = await searchInProcess(quickstartInput({ algorithm: 'mcts', evaluator: { name: 'always-nan' }, budget: { maxCalls: 60 } }), {
    env: inProcessAgent({ evaluators: [checker('always-nan', () => NaN)] }),
  }).catch((e: unknown) => e);
  expect(EvaluationsFailedError.isInstance(err)).toBe(true);
  expect((err as Error).name).toBe('GroveEvaluationsFailed');
  expect((err as Error).message).toMatch(/^every evaluation of this run failed \(3 of 3\): evaluator "always-nan": evaluator "always-nan" returned score NaN/);
});

test('a run whose few evaluations all failed fails at its end too', async () => {
  // Chain of thought evaluates only its final answer: one evaluation, failed.
  const err = await searchInProcess(quickstartInput({ algorithm: 'cot', evaluator: { name: 'always-throws' } }), {
    env: inProcessAgent({ evaluators: [defineEvaluator({ name: 'always-throws', run: () => { throw new Error('no tests'); } })] }),
  }).catch((e: unknown) => e);
  expect((err as Error).message).toBe('every evaluation of this run failed (1 of 1): evaluator "always-throws": evaluator "always-throws" threw: no tests');
});

test('with the behaviour off (runs recorded before the patch) core records no failure: their workflow port rethrows the activity failure instead', async () => {
  const run = await searchInProcess(quickstartInput({ algorithm: 'cot', evaluator: { name: 'always-nan' } }), {
    env: inProcessAgent({ evaluators: [checker('always-nan', () => NaN)] }),
    behaviour: { evaluationFailures: false },
  });
  if (run.handover) throw new Error('no handover expected');
  expect(run.state.tree.preorder().some((n) => n.data.evaluationFailed !== undefined)).toBe(false);
});
