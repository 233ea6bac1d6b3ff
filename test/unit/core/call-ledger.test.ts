import { CallLedger, logicalRef, refOfCallKey } from '../../../core/hash/call-ledger';

const input = { conversation: { path: 'a'.repeat(32) }, model: 'm', params: { n: 2 } };

test('the same request gets the same key in every execution, numbered by occurrence', () => {
  const first = new CallLedger(0);
  const again = new CallLedger(0);
  const keys = [first.key('llmChat', input), first.key('llmChat', input), first.key('llmChat', { ...input, model: 'other' })];
  expect([again.key('llmChat', input), again.key('llmChat', input), again.key('llmChat', { ...input, model: 'other' })]).toEqual(keys);
  expect(keys[0]).toMatch(/^g0\/[0-9a-f]{32}\/0$/);
  expect(keys[1]).toBe(keys[0].replace(/\/0$/, '/1'));
  expect(refOfCallKey(keys[2])).not.toBe(refOfCallKey(keys[0]));
});

test('store entries carried along do not change what a call asks; the kind and every other field do', () => {
  const carrying = { ...input, conversation: { ...input.conversation, writes: { messages: { x: { role: 'user', content: 'hi' } } } } };
  expect(logicalRef('llmChat', carrying)).toBe(logicalRef('llmChat', input));
  expect(logicalRef('llmChat', { ...input, callKey: 'g0/x/0' })).toBe(logicalRef('llmChat', input));
  expect(logicalRef('groveEvaluate', input)).not.toBe(logicalRef('llmChat', input));
  expect(logicalRef('llmChat', { ...input, params: { n: 3 } })).not.toBe(logicalRef('llmChat', input));
});

test('generations and the shared cache have keys of their own', () => {
  const ledger = new CallLedger(3);
  expect(ledger.key('llmChat', input)).toMatch(/^g3\//);
  expect(ledger.key('llmChat', input, 'shared')).toMatch(/^shared\/[0-9a-f]{32}\/1$/);
  expect(ledger.keyed('llmChat', input).callKey).toMatch(/\/2$/);
  expect(refOfCallKey('not a key')).toBeUndefined();
});
