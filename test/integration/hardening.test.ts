import { integrationSuite } from '../support/integration-suite';
import { groveClient } from '../support/temporal-env';

/** What a user can send must not freeze a worker, spend without limit, borrow a pool or leak a secret. */
const suite = integrationSuite('hardening');

test('catastrophic user patterns finish in linear time while other runs on the same worker carry on', async () => {
  const catastrophic = { kind: 'regex' as const, pattern: '^Echo: (a+)+$' };
  const schema = { type: 'object', properties: { answer: { type: 'string', pattern: '^(a+)+$' } } };
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const slow = [
      ...Array.from({ length: 3 }, () => grove.run('airetry', { prompt: `${'a'.repeat(40)}b`, model: 'echo', config: { maxRetries: 2 }, checks: [catastrophic] })),
      grove.run('airetry', { prompt: 'x', model: 'echo', config: { maxRetries: 1 }, checks: [{ kind: 'jsonSchema', schema }] }),
    ];
    const probes = Array.from({ length: 10 }, (_, i) => grove.run('generate', { prompt: `probe ${i}`, model: 'echo' }));
    const [slowResults, probeResults] = await Promise.all([Promise.all(slow), Promise.all(probes)]);
    expect(slowResults.map((r) => r.success)).toEqual([false, false, false, false]);
    expect(slowResults[0].checks).toEqual([{ name: 'regex#0', passed: false }]);
    expect(probeResults.map((r) => r.output)).toEqual(Array.from({ length: 10 }, (_, i) => `Echo: probe ${i}`));
    // Without linear-time matching each check evaluation blocks a workflow task for hours: the runs
    // never end (Temporal's deadlock detector fails the task, which is retried forever) and this test times out.
  });
});
