import { AgentInputSchema } from '../../../core/agents/agent-options';
import { OVERRIDES_PREFIX, overridesFromReason, unsupportedOverrides, withOverrides } from '../../../core/runs/run-overrides';
import { AiretryInputSchema } from '../../../core/airetry/airetry-input';

test('withOverrides applies a new model and budget in each kind’s own fields, and the result still validates', () => {
  const agent = withOverrides('agent', { algorithm: 'mcts', prompt: 'p', tools: ['t'], budget: { maxTokens: 9 } }, { model: 'm2', evaluatorModel: 'j2', budget: { maxCalls: 80 } });
  expect(AgentInputSchema.parse(agent)).toMatchObject({ model: 'm2', evaluator: { name: 'llm', model: 'j2' }, budget: { maxCalls: 80, maxTokens: 9 } });
  const custom = withOverrides('agent', { algorithm: 'mcts', prompt: 'p', tools: ['t'], evaluator: { name: 'checker' } }, { evaluatorModel: 'j2' });
  expect(custom.evaluator).toEqual({ name: 'checker' });
  const airetry = withOverrides('airetry', { prompt: 'p', checks: [{ kind: 'lowercase' }], config: { nSamples: 2 } }, { budget: { maxCalls: 30, maxRetries: 4 } });
  expect(AiretryInputSchema.parse(airetry).config).toMatchObject({ nSamples: 2, maxCalls: 30, maxRetries: 4 });
  expect(withOverrides('generate', { prompt: 'p', model: 'a' }, { model: 'b' })).toEqual({ prompt: 'p', model: 'b' });
});

test('unsupportedOverrides names what a kind cannot change', () => {
  expect(unsupportedOverrides('generate', { model: 'm', budget: { maxCalls: 3 } })).toEqual(['budget']);
  expect(unsupportedOverrides('airetry', { evaluatorModel: 'j', budget: { maxTokens: 3, maxCalls: 2 } })).toEqual(['evaluatorModel', 'budget.maxTokens']);
  expect(unsupportedOverrides('agent', { model: 'm', budget: { maxCalls: 3, maxWallMs: 10 } })).toEqual([]);
});

test("overridesFromReason reads a grove resume's reason, and nothing from anyone else's", () => {
  expect(overridesFromReason(`grove resume: from event 7\n${OVERRIDES_PREFIX}{"model":"m","budget":{"maxCalls":5}}`)).toEqual({ model: 'm', budget: { maxCalls: 5 } });
  expect(overridesFromReason('reset by hand')).toBeUndefined();
  expect(overridesFromReason(`${OVERRIDES_PREFIX}{not json`)).toBeUndefined();
  expect(overridesFromReason(`${OVERRIDES_PREFIX}{"model":"m","rm":"-rf"}`)).toBeUndefined();
  expect(overridesFromReason(undefined)).toBeUndefined();
});
