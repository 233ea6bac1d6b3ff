import { boundedBudget, DEFAULT_POLICY, OperatorPolicySchema, policyViolations } from '../../../core/policy/operator-policy';
import { checkPayload } from '../../../client/input-guards';

test('every ceiling names its field and its limit', () => {
  const airetry = policyViolations('airetry', { config: { maxCalls: 1e9, retryDelayMs: 1e12, nSamples: 10_000 }, apiKwargs: { n: 100 } }, DEFAULT_POLICY, 'grove');
  expect(airetry).toEqual([
    'apiKwargs.n: 100 is above the operator limit of 16 (maxFanOut)',
    'config.maxCalls: 1000000000 is above the operator limit of 1000 (maxCalls)',
    'config.retryDelayMs: 1000000000000 is above the operator limit of 600000 (maxRetryDelayMs)',
    'config.nSamples: 10000 is above the operator limit of 16 (maxFanOut)',
  ]);
  const agent = policyViolations(
    'agent',
    { budget: { maxCalls: 1e9, maxTokens: 1e12, maxCostUsd: 1e6, maxWallMs: 1e12 }, bFactor: 32, evaluator: { nSamples: 20 }, maxRollouts: 1e9 },
    DEFAULT_POLICY,
    'grove',
  );
  expect(agent).toHaveLength(7);
  expect(policyViolations('agent', { bFactor: 3, budget: { maxCalls: 60 } }, DEFAULT_POLICY, 'grove')).toEqual([]);
});

test('a run may only send work to its own task queue and the ones the operator allows', () => {
  const policy = OperatorPolicySchema.parse({ taskQueues: ['grove-tools'] });
  expect(policyViolations('agent', { toolTaskQueue: 'grove-tools', evaluatorTaskQueue: 'grove', llm: { taskQueue: 'gpu-pool' } }, policy, 'grove')).toEqual([
    'llm.taskQueue: task queue "gpu-pool" is not allowed for this run (allowed: "grove", "grove-tools"; the operator\'s taskQueues)',
  ]);
});

test('budgets left out default to the ceilings, given ones are kept', () => {
  expect(boundedBudget(undefined, DEFAULT_POLICY)).toEqual({ maxCalls: 1000, maxTokens: 10_000_000, maxWallMs: 86_400_000 });
  expect(boundedBudget({ maxCalls: 60, maxCostUsd: 0.5 }, DEFAULT_POLICY)).toEqual({ maxCalls: 60, maxCostUsd: 0.5, maxTokens: 10_000_000, maxWallMs: 86_400_000 });
});

test('inputs that cannot travel through Temporal are named before anything starts', () => {
  expect(() => checkPayload('generate', { prompt: 'x'.repeat(3 * 1024 * 1024) })).toThrow(
    /^invalid generate input: 3\.0 MB is over the 1\.9 MB a run's input may take \(Temporal's 2 MB payload limit, less room for what travels with the prompt\)/,
  );
  let deep: Record<string, unknown> = {};
  const root = deep;
  for (let i = 0; i < 200; i++) deep = (deep.next = {}) as Record<string, unknown>;
  expect(() => checkPayload('agent', root)).toThrow(/^invalid agent input: next(\.next){7}…: nests more than 64 levels deep; send flatter JSON$/);
  expect(() => checkPayload('airetry', { seed: BigInt(1) })).toThrow('invalid airetry input: seed: a BigInt is not JSON');
  const cycle: Record<string, unknown> = { prompt: 'x' };
  cycle.self = cycle;
  expect(() => checkPayload('generate', cycle)).toThrow('invalid generate input: self: it refers back to itself (a cycle is not JSON)');
  // Any depth gets the same answer, without overflowing the stack.
  let deeper: unknown = 1;
  for (let i = 0; i < 100_000; i++) deeper = [deeper];
  expect(() => checkPayload('generate', { prompt: 'x', extra: deeper })).toThrow(/^invalid generate input: extra\[0\]\[0\].*: nests more than 64 levels deep/);
  expect(() => checkPayload('generate', { prompt: 'fine' })).not.toThrow();
});
