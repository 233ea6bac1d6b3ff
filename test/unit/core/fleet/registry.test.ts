import { z } from 'zod';
import { describeWorkerRegistry } from '../../../../activities/registry/worker-registry';
import { defineTool } from '../../../../activities/tools';
import { formatDifferences, identityWithRegistry, parseIdentity, registryDifferences, registryQueue } from '../../../../core/fleet/registry';
import { multiplicationChecker } from '../../../../examples/evaluators/multiplication-checker';
import { finalAnswer, multiply } from '../../../../examples/tools';

const own = defineTool({ name: 'multiply', description: 'Multiplies two numbers (ours).', parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a * b });

test('a registry is its tools and evaluators by name and definition, in any order', () => {
  const a = describeWorkerRegistry([multiply, finalAnswer], [multiplicationChecker]);
  const b = describeWorkerRegistry([finalAnswer, multiply], [multiplicationChecker]);
  expect(a).toEqual(b);
  expect(a.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  expect(a.entries.map((e) => `${e.kind} ${e.name}`)).toEqual(['evaluator multiplication-checker', 'tool final_answer', 'tool multiply']);
  // The same tool with another run function (code is not hashed)...
  expect(describeWorkerRegistry([{ ...multiply, run: () => 0 }, finalAnswer], [multiplicationChecker]).fingerprint).toBe(a.fingerprint);
  // ...but another description, another version, or another flag is another tool.
  for (const changed of [own, { ...multiply, version: '2' }, { ...multiply, fast: false }]) {
    expect(describeWorkerRegistry([changed, finalAnswer], [multiplicationChecker]).fingerprint).not.toBe(a.fingerprint);
  }
  expect(describeWorkerRegistry([multiply, finalAnswer], [{ ...multiplicationChecker, version: '2' }]).fingerprint).not.toBe(a.fingerprint);
});

test('differences name each entry and side; only the names a run uses when asked', () => {
  const mine = describeWorkerRegistry([multiply, finalAnswer], [multiplicationChecker]).entries;
  const theirs = describeWorkerRegistry([own], []).entries;
  const all = registryDifferences(mine, theirs);
  expect(all.map((d) => [d.kind, d.name, Boolean(d.a), Boolean(d.b)])).toEqual([
    ['evaluator', 'multiplication-checker', true, false],
    ['tool', 'final_answer', true, false],
    ['tool', 'multiply', true, true],
  ]);
  expect(formatDifferences(registryDifferences(mine, theirs, new Set(['tool multiply'])), 'A', 'B')).toMatch(/^tool multiply differs \([0-9a-f]{8} on A, [0-9a-f]{8} on B\)$/);
  expect(formatDifferences(registryDifferences(mine, theirs, new Set(['tool final_answer'])), 'A', 'B')).toBe('tool final_answer only on A');
  expect(registryDifferences(mine, mine)).toEqual([]);
});

test('identities and queues carry the fingerprint', () => {
  expect(identityWithRegistry('4242@host', '3fa9c2d1e0b4a7f2')).toBe('4242@host grove:3fa9c2d1e0b4a7f2');
  expect(identityWithRegistry('4242@host grove:0000000000000000', '3fa9c2d1e0b4a7f2')).toBe('4242@host grove:3fa9c2d1e0b4a7f2');
  expect(parseIdentity('4242@host grove:3fa9c2d1e0b4a7f2')).toEqual({ worker: '4242@host', fingerprint: '3fa9c2d1e0b4a7f2' });
  expect(parseIdentity('python-worker-1')).toEqual({ worker: 'python-worker-1' });
  expect(registryQueue('grove', '3fa9c2d1e0b4a7f2')).toBe('grove@3fa9c2d1e0b4a7f2');
});
