import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { openStore } from '../../activities/store/open-store';
import { GroveClient } from '../../client/grove-client';
import { startDevServer, type DevServer } from '../../client/temporal-server/dev-server';
import { freePort } from '../../client/temporal-server/ports';
import { startModelServer, type ModelServer } from '../../model-server';
import { quickstartInput, searchInProcess } from '../../bench/lib/in-process-agent';
import { freshDatabase } from '../support/postgres';
import { openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';

// A dev server of its own that suggests continue-as-new after a few dozen history events, so a
// small search hands over several times.
let server: DevServer;
let env: TestEnv;
let model: ModelServer;

beforeAll(async () => {
  const shared = await openTestEnv(); // for the bundle path and the runtime
  await shared.close();
  server = await startDevServer({ port: await freePort(), uiPort: false, dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 40 } });
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  env = {
    address: server.address,
    client: new Client({ connection }),
    nativeConnection,
    bundlePath: shared.bundlePath,
    close: async () => {
      await connection.close();
      await nativeConnection.close();
    },
  };
  model = await startModelServer();
}, 60_000);
afterAll(async () => {
  await model?.close();
  await env?.close();
  await server?.stop();
});

test('a search forced through continue-as-new on the networked store keeps its tree and result', async () => {
  const spec = quickstartInput({ model: 'multiplier?p=0.2&guess=0.3' });
  const taskQueue = uniqueTaskQueue('can');
  const store = openStore(await freshDatabase());
  const worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL), store });
  const { result, runs } = await worker.runUntil(async () => {
    const grove = new GroveClient(env.client, taskQueue);
    const handle = await grove.start('agent', spec);
    const result = await handle.result();
    const runs = [];
    for await (const run of env.client.workflow.list({ query: `WorkflowId = "${handle.workflowId}"` })) runs.push(run);
    // A continued run is not a resumed one: it makes no resume read (its runId is its original one).
    for (const run of runs) {
      const history = await env.client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      const resumeMarker = (e: (typeof history.events & object)[number]) =>
        e.markerRecordedEventAttributes && Buffer.from(e.markerRecordedEventAttributes.details?.['patch-data']?.payloads?.[0]?.data ?? []).toString().includes('grove-resume-');
      expect(history.events?.filter((e) => resumeMarker(e) || e.activityTaskScheduledEventAttributes?.activityType?.name === 'groveResumeOverrides')).toEqual([]);
    }
    return { result, runs };
  });
  expect(result.counters.handovers).toBeGreaterThanOrEqual(2);
  expect(runs.length).toBe(result.counters.handovers + 1);
  const local = await searchInProcess(spec);
  if (local.handover) throw new Error('unexpected handover');
  // Handovers drop display-only fields and finished leaves' refs; the search itself is identical.
  const searchOnly = (tree: { nodes: unknown[][] }) =>
    tree.nodes.map(([id, parent, data, ...stats]) => {
      const { output, solved } = data as Record<string, unknown>;
      return [id, parent, { output, solved }, ...stats];
    });
  expect(searchOnly(result.tree)).toEqual(searchOnly(local.state.tree.toJSON()));
  expect(result.messages).toEqual(local.messages);
  expect(result.isSolution).toBe(local.outcome.isSolution);
  // Everything the runs stored is in PostgreSQL, owned by the search's workflow id.
  const stats = await store.stats();
  expect(stats.owners).toBe(1);
  expect(stats.entries).toBeGreaterThan(result.nodes);
  await store.close();
}, 90_000);
