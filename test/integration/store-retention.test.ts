import { openStore } from '../../activities/store/open-store';
import { collectGarbage, namespaceRetentionMs } from '../../client/store-retention';
import { integrationSuite } from '../support/integration-suite';
import { freshDatabase } from '../support/postgres';
import { runCli } from '../support/run-cli';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';
import { until } from '../../workers/worker-process';
import { colorGameInput } from '../support/inputs';

/** Retention on the networked store, with liveness read from the real Temporal server. */
const suite = integrationSuite('store-retention');

const input = colorGameInput({ seed: 3 });

test('gc deletes what only closed runs own and keeps everything a running run needs; stats and gc work from the CLI', async () => {
  const url = await freshDatabase();
  const store = openStore(url);
  const taskQueue = uniqueTaskQueue('retention');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), store });
  await worker.runUntil(async () => {
    const grove = groveClient(suite.env, taskQueue);
    const closed = await grove.run('airetry', input, { workflowId: `${taskQueue}-closed` });
    const paid = suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${taskQueue}-closed/`) && r.outcome === 'completed').length;
    // The second run shares its prompt with the first one and keeps running: its model is down.
    suite.model.addFault({ match: { callKeyPrefix: `${taskQueue}-running/` }, action: { kind: 'status', status: 503 }, times: 0 });
    const running = await grove.start('airetry', { ...input, llm: { initialRetryMs: 200, maxRetryIntervalMs: 200, maxAttempts: 1000 } }, { workflowId: `${taskQueue}-running` });
    await until(() => suite.model.stats().requests.some((r) => r.callKey?.startsWith(`${taskQueue}-running/`)), 30_000, 'the running run to call its model');

    const before = await store.stats();
    expect(before.owners).toBe(2);
    expect(before.calls).toBe(paid);

    const cli = await runCli(['store', 'stats', '--json'], { GROVE_STORE_URL: url });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ entries: before.entries, calls: before.calls, owners: 2, store: url.replace(/:[^:@/]+@/, ':***@') });
    expect(cli.stdout).not.toContain(new URL(url).password);

    const dry = await runCli(['store', 'gc', '--retention', '0d', '--dry-run', '--json'], { GROVE_STORE_URL: url, TEMPORAL_ADDRESS: suite.env.address });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ owners: 2, deadOwners: 1, callsDeleted: paid, retentionMs: 0 });
    expect((await store.stats()).calls).toBe(paid);

    // Written "a second ago" is older than a zero retention: only liveness protects an entry.
    const report = await collectGarbage(store, suite.env.client, { retentionMs: 0, nowMs: Date.now() + 1000 });
    expect(report).toMatchObject({ owners: 2, deadOwners: 1, callsDeleted: paid });
    expect(report.entriesDeleted).toBeGreaterThan(0);
    const after = await store.stats();
    expect(after).toMatchObject({ owners: 1, calls: 0 });
    expect(after.entries).toBe(before.entries - report.entriesDeleted);

    // The running run still has everything it needs: once its model answers, it finishes as the closed one did.
    suite.model.clearFaults();
    const result = await running.result();
    expect(result.tree).toEqual(closed.tree);
  });
  expect(await namespaceRetentionMs(suite.env.client)).toBeGreaterThan(0);
  await store.close();
});
