import { quickstartInput, searchInProcess } from '../../../../bench/lib/in-process-agent';
import { readTrajectory } from '../../../../model-server/policies/noisy-judge';

// bFactor 3 with the LLM evaluator: a whole expansion costs 1 + 3 = 4 calls.
test.each([9, 10, 11, 14])('anytime budgets use a %i-call budget (all but a lone call, which cannot buy a candidate and its evaluation); without them up to 3 are left', async (maxCalls) => {
  const input = quickstartInput({ model: 'multiplier?p=0.5&guess=0.5', budget: { maxCalls }, seed: 3 });
  const anytime = await searchInProcess(input, { seed: 3, behaviour: { plannedWidth: false } });
  const strict = await searchInProcess(input, { seed: 3, behaviour: { anytime: false, plannedWidth: false } });
  if (anytime.handover || strict.handover) throw new Error('no handover expected');
  if (anytime.outcome.stop.kind === 'maxCalls') expect(anytime.state.counters.llmCalls).toBeGreaterThanOrEqual(maxCalls - 1);
  expect(anytime.state.counters.llmCalls).toBeLessThanOrEqual(maxCalls);
  expect(strict.state.counters.llmCalls).toBeLessThanOrEqual(maxCalls);
  if (strict.outcome.stop.kind === 'maxCalls') expect(maxCalls - strict.state.counters.llmCalls).toBeLessThan(4);
  expect(anytime.state.counters.llmCalls).toBeGreaterThanOrEqual(strict.state.counters.llmCalls);
});

test('the noisy judge reads only the trajectory text: grounded calls, operands from nowhere, a final answer', () => {
  const text = [
    '[user] Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
    '[assistant] → multiply({"a":9418.343,"b":8.11})',
    '[tool multiply] 76382.76173',
    '[assistant] → multiply({"a":2,"b":76382.76173})',
    '[tool multiply] 152765.52346',
    '[assistant] → multiply({"a":76382.76173,"b":99999})',
    '[tool multiply] 7638199999',
    '[assistant] → final_answer({"answer":7638199999})',
  ].join('\n');
  expect(readTrajectory(text)).toEqual({ grounded: 2, ungrounded: 1, final: 7638199999, lastResult: 7638199999 });
});
