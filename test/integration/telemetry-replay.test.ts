import { Client, type WorkflowHandle } from '@temporalio/client';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GroveTelemetry } from '../../activities/telemetry/grove-telemetry';
import { telemetrySettingsFromEnv } from '../../activities/telemetry/otel-settings';
import { replayHistory } from '../../client/replay/replay';
import { GroveClient } from '../../client/grove-client';
import { groveClientInterceptors } from '../../temporal/telemetry-interceptors';
import type { AgentInput } from '../../core/agents/agent-options';
import { writeWorkflowBundle } from '../../workers/workflow-bundle';
import { workerTelemetry } from '../../workers/worker-telemetry';
import { integrationSuite } from '../support/integration-suite';
import { startOtlpReceiver, type OtlpReceiver } from '../../bench/lib/otlp-receiver';
import { testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Tracing never changes what a workflow decides: every recorded history replays with grove's
 * tracing interceptors installed (the workflows' own randomness and timing untouched), a run
 * recorded with tracing on replays with it off and the reverse, and a replay exports nothing.
 */
const suite = integrationSuite('telemetry-replay');
const DIR = join(__dirname, '..', 'fixtures', 'histories');
const fixtures = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const plain = () => ({ codePath: process.env.GROVE_TEST_WORKFLOW_BUNDLE! });
let tracedBundle: { codePath: string };
let receiver: OtlpReceiver;
let telemetry: GroveTelemetry;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  telemetry = new GroveTelemetry(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })!);
  tracedBundle = await writeWorkflowBundle(join(process.env.GROVE_TEST_DIR!, 'workflow-bundle-traced.js'), {
    workflowsPath: join(__dirname, '..', 'support', 'test-workflows.ts'),
    tracing: true,
  });
}, 120_000);

afterAll(async () => {
  await telemetry?.shutdown();
  await receiver?.close();
});

const history = (file: string) => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

test.each(fixtures)('%s replays with the tracing interceptors installed', async (file) => {
  const report = await replayHistory(history(file), { workflowBundle: tracedBundle, sinks: workerTelemetry(telemetry).sinks, workflowId: file });
  expect(report).toMatchObject({ ok: true });
});

test('a replay exports no span and counts no run', async () => {
  for (const file of fixtures) await replayHistory(history(file), { workflowBundle: tracedBundle, sinks: workerTelemetry(telemetry).sinks, workflowId: file });
  await telemetry.forceFlush();
  expect(receiver.spans).toEqual([]);
  expect(receiver.metrics.filter((m) => m.name === 'grove.runs')).toEqual([]);
  // Every recorded history in turn: about half a second each on a quiet machine, many times that on a busy one.
}, 30_000 + fixtures.length * 10_000);

const PARALLEL: AgentInput = {
  algorithm: 'mcts',
  parallelism: 3,
  prompt: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
  tools: ['multiply', 'final_answer'],
  model: 'multiplier?p=0.4&guess=0.4',
  evaluator: { name: 'llm', model: 'multiplier-judge' },
  maxDepth: 8,
  budget: { maxCalls: 40 },
};

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/** Runs `start` to its end on a worker that traces (`traced`) or not, and returns the run's history. */
async function recorded(traced: boolean, start: (client: Client, grove: GroveClient, taskQueue: string) => Promise<WorkflowHandle>): Promise<History> {
  const tq = uniqueTaskQueue(traced ? 'traced' : 'plain');
  const worker = await testWorker(suite.env, { taskQueue: tq, llm: testLlmConfig(suite.model.baseURL), workflowBundle: traced ? tracedBundle : plain(), telemetry: traced ? telemetry : false });
  const client = traced ? new Client({ connection: suite.env.client.connection, interceptors: { workflow: groveClientInterceptors(telemetry) } }) : suite.env.client;
  return worker.runUntil(async () => {
    const handle = await start(client, new GroveClient(client, tq), tq);
    await handle.result();
    return handle.fetchHistory();
  });
}

/** Replays each history with and without tracing; every replay must make the recorded decisions. */
async function expectReplaysBothWays(histories: Record<string, History>): Promise<void> {
  const sinks = workerTelemetry(telemetry).sinks;
  for (const [name, history] of Object.entries(histories)) {
    for (const [bundle, mode] of [[plain(), 'off'], [tracedBundle, 'on']] as const) {
      const label = `${name} replayed with tracing ${mode}`;
      expect({ label, ...(await replayHistory(history, { workflowBundle: bundle, sinks, workflowId: label })) }).toMatchObject({ label, ok: true });
    }
  }
}

/** The header fields a history's workflow start and scheduled activities carry. */
function headerFields(h: History): string[] {
  return (h.events ?? []).flatMap((e) => Object.keys(e.workflowExecutionStartedEventAttributes?.header?.fields ?? e.activityTaskScheduledEventAttributes?.header?.fields ?? {}));
}

test('a parallel search recorded with tracing on replays with it off, and one recorded with it off replays with it on', async () => {
  const on = await recorded(true, (_c, grove) => grove.start('agent', PARALLEL));
  const off = await recorded(false, (_c, grove) => grove.start('agent', PARALLEL));
  // The traced run carried its trace context into the workflow and to every activity; the other carried nothing.
  const fields = headerFields(on);
  expect(fields.length).toBeGreaterThan(10);
  expect(fields.every((f) => f === '_tracer-data')).toBe(true);
  expect(headerFields(off)).toEqual([]);
  await expectReplaysBothWays({ 'recorded on': on, 'recorded off': off });
}, 120_000);

test("a user's workflow whose decisions hang on Math.random and uuid4 decides the same with tracing on or off", async () => {
  const start = (client: Client, _g: GroveClient, taskQueue: string) => client.workflow.start('randomDecisions', { taskQueue, workflowId: `${taskQueue}-random`, args: [12] });
  const on = await recorded(true, start);
  const off = await recorded(false, start);
  await expectReplaysBothWays({ 'recorded on': on, 'recorded off': off });
}, 120_000);
