import { Client } from '@temporalio/client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GroveTelemetry } from '../../activities/telemetry/grove-telemetry';
import { telemetrySettingsFromEnv } from '../../activities/telemetry/otel-settings';
import { DEFAULT_EVALUATOR_PROMPT } from '../../activities/evaluators/llm-evaluator';
import { GroveClient } from '../../client/grove-client';
import { groveClientInterceptors } from '../../temporal/telemetry-interceptors';
import type { AgentInput } from '../../core/agents/agent-options';
import { writeWorkflowBundle } from '../../workers/workflow-bundle';
import { startWorkerProcess } from '../../workers/worker-process';
import { ROOT, runCli, runScript } from '../support/run-cli';
import { colorGameInput } from '../support/inputs';
import { integrationSuite } from '../support/integration-suite';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedMetric, type ReceivedSpan } from '../../bench/lib/otlp-receiver';
import { testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * What a worker and a client export by OpenTelemetry, received by a real OTLP/HTTP receiver and
 * decoded with the OTLP message definitions: one trace per run from the client's start through
 * the workflow to its activities and the model calls, tool runs and evaluations inside them,
 * with the GenAI attributes and token counts the scripted model server reported; the metrics;
 * and no prompt, answer or key anywhere in what was sent.
 */
const suite = integrationSuite('telemetry');
const API_KEY = 'sk-grove-telemetry-test-0123456789abcdef';
const COLLECTOR_KEY = 'collector-credential-7f3a9c21';
const MCTS: AgentInput = {
  ...(JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'inputs', 'multiplication-mcts.json'), 'utf8')) as AgentInput),
  pricing: { inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 },
};
const COLOR_GAME = colorGameInput();
let tracedBundle: { codePath: string };

beforeAll(async () => {
  tracedBundle = await writeWorkflowBundle(join(process.env.GROVE_TEST_DIR!, 'workflow-bundle-traced-telemetry.js'), {
    workflowsPath: join(__dirname, '..', 'support', 'test-workflows.ts'),
    tracing: true,
  });
}, 120_000);

/** A receiver, a pipeline exporting to it with `env`, a traced worker and a client that starts traces. */
async function observed<T>(
  env: Record<string, string>,
  fn: (grove: GroveClient, receiver: OtlpReceiver) => Promise<T>,
  secrets: Record<string, string> = {},
): Promise<{ result: T; receiver: OtlpReceiver }> {
  const receiver = await startOtlpReceiver();
  const telemetry = new GroveTelemetry(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env })!, { env: secrets });
  try {
    const taskQueue = uniqueTaskQueue('telemetry');
    const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL, { apiKey: API_KEY }), workflowBundle: tracedBundle, telemetry });
    const client = new Client({ connection: suite.env.client.connection, interceptors: { workflow: groveClientInterceptors(telemetry) } });
    const result = await worker.runUntil(fn(new GroveClient(client, taskQueue), receiver));
    await telemetry.forceFlush();
    return { result, receiver };
  } finally {
    await telemetry.shutdown();
    await receiver.close();
  }
}

const named = (spans: ReceivedSpan[], name: string | RegExp) => spans.filter((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
const sum = (spans: ReceivedSpan[], key: string) => spans.reduce((a, s) => a + Number(s.attributes[key] ?? 0), 0);

/** The latest export of a metric's points (cumulative: the last export holds the totals). */
function latest(metrics: ReceivedMetric[], name: string): ReceivedMetric['points'] {
  const exports = metrics.filter((m) => m.name === name);
  return exports.length ? exports[exports.length - 1]!.points : [];
}

test('a quickstart MCTS run is one trace: client start → workflow → node expansions → activities → model calls, tool runs and evaluations', async () => {
  const before = suite.model.stats().byModel;
  const { result, receiver } = await observed(
    {
      OTEL_SERVICE_NAME: 'grove-telemetry-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`,
    },
    (grove) => grove.run('agent', MCTS),
  );
  const after = suite.model.stats().byModel;
  const { spans } = receiver;
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const parent = (s: ReceivedSpan) => byId.get(s.parentSpanId);

  // One trace, rooted at the client's start; every other span's parent arrived too.
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const roots = spans.filter((s) => !byId.has(s.parentSpanId));
  expect(roots.map((s) => s.name)).toEqual(['StartWorkflow:agent']);
  expect(roots[0]!.attributes['grove.run.id']).toBe(result.workflowId);
  const [run] = named(spans, 'RunWorkflow:agent');
  expect(parent(run!)?.name).toBe('StartWorkflow:agent');
  expect(run!.attributes).toMatchObject({ 'grove.run.id': result.workflowId, 'grove.run.kind': 'agent:mcts', 'grove.run.status': 'succeeded', 'grove.run.cost_usd': result.costUsd });

  // A span per node expansion, under the run, naming the node and its children.
  const expansions = named(spans, 'grove.expand');
  expect(expansions.length).toBe(result.counters.expansions);
  for (const e of expansions) {
    expect(parent(e)).toBe(run);
    expect(e.attributes).toMatchObject({ 'grove.run.id': result.workflowId, 'grove.node.id': expect.any(Number), 'grove.node.depth': expect.any(Number) });
    expect((e.attributes['grove.node.children'] as number[]).length).toBeGreaterThan(0);
  }
  expect(expansions.map((e) => e.attributes['grove.node.id'])).toContain(0);

  // Activities run inside the span the workflow scheduled them from.
  for (const s of named(spans, /^RunActivity:/)) expect(parent(s)?.name).toBe(s.name.replace('RunActivity:', 'StartActivity:'));
  for (const s of named(spans, 'StartActivity:llmChat')) expect(parent(s)?.name).toBe('grove.expand');

  // Model calls: one span per call, the GenAI attributes, the tokens the server reported.
  const chats = named(spans, /^chat /);
  expect(chats.length).toBe(result.counters.llmCalls);
  const requests = (model: string) => (after[model]?.completed ?? 0) - (before[model]?.completed ?? 0);
  const candidates = chats.filter((c) => c.attributes['gen_ai.request.model'] === MCTS.model);
  const judged = chats.filter((c) => c.attributes['gen_ai.request.model'] === 'multiplier-judge');
  expect(candidates.length).toBe(requests('multiplier'));
  expect(judged.length).toBe(requests('multiplier-judge'));
  expect(candidates.length + judged.length).toBe(chats.length);
  for (const c of chats) {
    expect(c.kind).toBe(3); // CLIENT
    expect(c.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.response.model': c.attributes['gen_ai.request.model'],
      'gen_ai.request.temperature': expect.any(Number),
      'gen_ai.response.finish_reasons': expect.arrayContaining([expect.any(String)]),
      'gen_ai.usage.input_tokens': expect.any(Number),
      'gen_ai.usage.output_tokens': expect.any(Number),
      'server.address': '127.0.0.1',
      'grove.run.id': result.workflowId,
    });
  }
  for (const c of candidates) expect(parent(c)?.name).toBe('RunActivity:llmChat');
  for (const c of judged) expect(parent(c)?.name).toBe('evaluate llm');
  expect(sum(chats, 'gen_ai.usage.input_tokens')).toBe(result.usage.promptTokens);
  expect(sum(chats, 'gen_ai.usage.output_tokens')).toBe(result.usage.completionTokens);

  // Tool runs and evaluations.
  const tools = named(spans, /^execute_tool /);
  expect(tools.length).toBe(result.counters.toolRuns);
  for (const t of tools) {
    expect(parent(t)?.name).toBe('RunActivity:groveRunTool');
    expect(t.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.id': expect.stringMatching(/^call_/) });
    expect(t.name).toBe(`execute_tool ${t.attributes['gen_ai.tool.name']}`);
  }
  expect(tools.filter((t) => t.status.code === 2).length).toBe(result.counters.toolErrors);
  const evaluations = named(spans, 'evaluate llm');
  expect(evaluations.length).toBe(result.counters.evaluations);
  for (const e of evaluations) {
    expect(e.attributes).toMatchObject({ 'gen_ai.evaluation.name': 'llm', 'gen_ai.evaluation.score.value': e.attributes['grove.score'] });
    expect(e.events.map((x) => x.name)).toEqual(['gen_ai.evaluation.result']);
  }
  expect(Math.max(...evaluations.map((e) => Number(e.attributes['grove.score'])))).toBeCloseTo(result.score, 3);

  // The resource says who sent it.
  expect(run!.resource).toMatchObject({ 'service.name': 'grove-telemetry-test', 'deployment.environment': 'test', 'telemetry.sdk.language': 'nodejs' });

  // Metrics: per call token usage and duration, the run by its status, its cost by its pricing.
  const usage = latest(receiver.metrics, 'gen_ai.client.token.usage');
  const input = usage.filter((p) => p.attributes['gen_ai.token.type'] === 'input');
  const output = usage.filter((p) => p.attributes['gen_ai.token.type'] === 'output');
  expect(input.reduce((a, p) => a + p.count!, 0)).toBe(result.counters.llmCalls);
  expect(input.reduce((a, p) => a + p.sum!, 0)).toBe(result.usage.promptTokens);
  expect(output.reduce((a, p) => a + p.sum!, 0)).toBe(result.usage.completionTokens);
  expect(latest(receiver.metrics, 'gen_ai.client.operation.duration').reduce((a, p) => a + p.count!, 0)).toBe(result.counters.llmCalls);
  expect(latest(receiver.metrics, 'grove.runs')).toEqual([{ attributes: { 'grove.run.kind': 'agent:mcts', 'grove.run.status': 'succeeded' }, value: 1 }]);
  const [cost] = latest(receiver.metrics, 'grove.run.cost');
  expect(result.costUsd).toBeGreaterThan(0);
  expect(cost!.value).toBeCloseTo(result.costUsd, 12);

  // Content and secrets stay home: no prompt, no answer, no evaluator prompt, no key, no collector credential.
  const sent = Buffer.concat(receiver.bodies).toString('latin1');
  expect(String(result.answer).length).toBeGreaterThan(8);
  for (const secret of [MCTS.prompt!, DEFAULT_EVALUATOR_PROMPT.slice(0, 40), String(result.answer), API_KEY, COLLECTOR_KEY, 'Bearer']) expect(sent).not.toContain(secret);
  expect(receiver.requests.every((r) => r.endsWith('application/x-protobuf'))).toBe(true);
  expect(receiver.headers.every((h) => h['x-collector-key'] === COLLECTOR_KEY)).toBe(true);
  process.stderr.write(`telemetry: MCTS quickstart → ${countByName(spans)}; metrics ${[...new Set(receiver.metrics.map((m) => m.name))].join(', ')}\n`);
});

test('an airetry run over OTLP/JSON: one trace, one model call span per request, every metric', async () => {
  const before = suite.model.stats().byModel['color-guesser']?.completed ?? 0;
  const { result, receiver } = await observed({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, (grove) => grove.run('airetry', COLOR_GAME));
  const requests = (suite.model.stats().byModel['color-guesser']?.completed ?? 0) - before;
  const { spans } = receiver;
  expect(receiver.requests.every((r) => r.endsWith('application/json'))).toBe(true);
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  expect(spans.filter((s) => !byId.has(s.parentSpanId)).map((s) => s.name)).toEqual(['StartWorkflow:airetry']);
  const [run] = named(spans, 'RunWorkflow:airetry');
  expect(byId.get(run!.parentSpanId)?.name).toBe('StartWorkflow:airetry');
  expect(run!.attributes).toMatchObject({ 'grove.run.kind': 'airetry', 'grove.run.status': result.success ? 'succeeded' : 'exhausted' });
  const chats = named(spans, 'chat color-guesser');
  expect(chats.length).toBe(requests);
  for (const c of chats) {
    expect(byId.get(c.parentSpanId)?.name).toBe('RunActivity:llmChat');
    expect(byId.get(byId.get(c.parentSpanId)!.parentSpanId)?.name).toBe('StartActivity:llmChat');
    expect(c.attributes).toMatchObject({ 'gen_ai.request.choice.count': 2, 'gen_ai.output.type': 'text' });
  }
  expect(sum(chats, 'gen_ai.usage.input_tokens')).toBe(result.usage.promptTokens);
  expect(sum(chats, 'gen_ai.usage.output_tokens')).toBe(result.usage.completionTokens);
  expect(latest(receiver.metrics, 'grove.runs')).toEqual([{ attributes: { 'grove.run.kind': 'airetry', 'grove.run.status': result.success ? 'succeeded' : 'exhausted' }, value: 1 }]);
  expect(latest(receiver.metrics, 'grove.run.cost')).toEqual([]); // no pricing, no cost
  const usage = latest(receiver.metrics, 'gen_ai.client.token.usage');
  expect(usage.filter((p) => p.attributes['gen_ai.token.type'] === 'input').reduce((a, p) => a + p.count!, 0)).toBe(requests);
  const sent = Buffer.concat(receiver.bodies).toString('utf8');
  for (const text of [COLOR_GAME.prompt, API_KEY, `"${String(result.output)}"`]) expect(sent).not.toContain(text);
});

function countByName(spans: ReceivedSpan[]): string {
  const counts = new Map<string, number>();
  for (const s of spans) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
}

test('content capture is opt-in: prompts, answers, tool arguments and results and reasoning on the spans, known secrets blanked', async () => {
  const token = 'tok-telemetry-test-5e1f0a77c2';
  const prompt = `Remember the service token ${token} for later.`;
  const { result, receiver } = await observed(
    { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' },
    async (grove) => {
      // Two runs at once on one worker: each keeps its own trace.
      const [echo, search] = await Promise.all([grove.run('generate', { prompt, model: 'echo', system: 'Be brief.' }), grove.run('agent', { ...MCTS, pricing: undefined })]);
      return { echo, search };
    },
    { SERVICE_TOKEN: token },
  );
  const byId = new Map(receiver.spans.map((s) => [s.spanId, s]));
  expect(receiver.spans.filter((s) => !byId.has(s.parentSpanId)).map((s) => s.name).sort()).toEqual(['StartWorkflow:agent', 'StartWorkflow:generate']);
  for (const run of [result.echo, result.search]) {
    const [root] = receiver.spans.filter((s) => s.attributes['grove.run.id'] === run.workflowId && s.name.startsWith('StartWorkflow'));
    const trace = receiver.spans.filter((s) => s.traceId === root!.traceId);
    expect(trace.filter((s) => s.attributes['grove.run.id'] !== undefined).every((s) => s.attributes['grove.run.id'] === run.workflowId)).toBe(true);
  }
  const [echo] = named(receiver.spans, 'chat echo');
  const input = JSON.parse(String(echo!.attributes['gen_ai.input.messages']));
  expect(input).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Remember the service token [redacted SERVICE_TOKEN] for later.' }] }]);
  expect(JSON.parse(String(echo!.attributes['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: 'Be brief.' }]);
  const output = JSON.parse(String(echo!.attributes['gen_ai.output.messages']));
  expect(output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: expect.stringContaining('[redacted SERVICE_TOKEN]') }], finish_reason: 'stop' }]);
  expect(result.echo.output).toContain(token); // the run itself got its answer: only the export is blanked
  expect(Buffer.concat(receiver.bodies).toString('latin1')).not.toContain(token);

  const multiply = named(receiver.spans, 'execute_tool multiply');
  expect(multiply.length).toBeGreaterThan(0);
  for (const t of multiply) {
    const args = JSON.parse(String(t.attributes['gen_ai.tool.call.arguments']));
    const output = String(t.attributes['gen_ai.tool.call.result']);
    // The scripted player sometimes passes bad arguments: the model is told why, and so is the span.
    if (t.status.code === 2) expect(output).toMatch(/^Error/);
    else expect(Number(output)).toBeCloseTo(args.a * args.b, 3);
  }
  expect(multiply.some((t) => t.status.code !== 2)).toBe(true);
  const evaluation = named(receiver.spans, 'evaluate llm')[0]!;
  expect(String(evaluation.attributes['gen_ai.evaluation.explanation']).length).toBeGreaterThan(0);
  const candidate = named(receiver.spans, /^chat multiplier\?/)[0]!;
  expect(JSON.parse(String(candidate.attributes['gen_ai.input.messages']))[0]).toEqual({ role: 'user', parts: [{ type: 'text', content: MCTS.prompt }] });
  expect(result.search.isSolution).toBe(true);
});

test('grove worker (the compiled package, its prebuilt traced bundle) and grove run, each in its own process, export one trace for the run, and flush as they exit', async () => {
  const receiver = await startOtlpReceiver();
  const taskQueue = uniqueTaskQueue('telemetry-cli');
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
  // `grove worker` as installed: the compiled package, with its prebuilt bundle of traced workflows.
  const worker = startWorkerProcess(
    {
      TEMPORAL_ADDRESS: suite.env.address,
      GROVE_TASK_QUEUE: taskQueue,
      OPENAI_BASE_URL: suite.model.baseURL,
      OPENAI_API_KEY: API_KEY,
      GROVE_STORE_DIR: join(process.env.GROVE_TEST_DIR!, `store-${taskQueue}`),
      OTEL_SERVICE_NAME: 'grove-worker-process',
      ...otel,
    },
    { args: [join(ROOT, 'bin', 'grove'), 'worker', '--module', join(ROOT, 'dist', 'examples', 'worker-module.js')] },
  );
  try {
    await worker.ready;
    expect(worker.output()).toContain(`grove worker: OpenTelemetry: traces to ${receiver.url}/v1/traces, metrics to ${receiver.url}/v1/metrics (service grove-worker-process; prompts and completions not recorded)`);
    const run = await runCli(['run', 'agent', '--input', join('examples', 'inputs', 'multiplication-mcts.json'), '--json'], {
      TEMPORAL_ADDRESS: suite.env.address,
      GROVE_TASK_QUEUE: taskQueue,
      OTEL_SERVICE_NAME: 'grove-cli',
      ...otel,
    });
    expect(run.stderr).not.toMatch(/error|fail/i);
    const outcome = JSON.parse(run.stdout);
    // The CLI exported its start before it exited; the worker exports the rest as it stops.
    const started = named(receiver.spans, 'StartWorkflow:agent');
    expect(started.map((s) => s.resource['service.name'])).toEqual(['grove-cli']);
    await worker.kill('SIGINT');
    const spans = receiver.spans.filter((s) => s.traceId === started[0]!.traceId);
    expect(spans.length).toBe(receiver.spans.length);
    const [workflow] = named(spans, 'RunWorkflow:agent');
    expect(workflow!.parentSpanId).toBe(started[0]!.spanId);
    expect(workflow!.resource['service.name']).toBe('grove-worker-process');
    expect(started[0]!.attributes['grove.run.id']).toBe(outcome.workflowId);
    expect(workflow!.attributes['grove.run.id']).toBe(outcome.workflowId);
    expect(named(spans, /^chat /).length).toBe(outcome.counters.llmCalls);
    expect(latest(receiver.metrics, 'grove.runs')).toEqual([{ attributes: { 'grove.run.kind': 'agent:mcts', 'grove.run.status': 'succeeded' }, value: 1 }]);
    expect(Buffer.concat(receiver.bodies).toString('latin1')).not.toContain(API_KEY);
  } finally {
    if (worker.child.exitCode === null) await worker.kill('SIGKILL');
    await receiver.close();
  }
}, 180_000);

test("docs/observability.md's example: a service's request span is the parent of the run's whole trace", async () => {
  const receiver = await startOtlpReceiver();
  try {
    const taskQueue = uniqueTaskQueue('telemetry-example');
    // In its own process, as a service runs it (the scripted model server answers from this one).
    const child = await runScript(join('examples', 'observability', 'traced-run.ts'), {
      ...cleanEnv(),
      TEMPORAL_ADDRESS: suite.env.address,
      GROVE_TASK_QUEUE: taskQueue,
      GROVE_STORE_DIR: join(process.env.GROVE_TEST_DIR!, `store-${taskQueue}`),
      OPENAI_BASE_URL: suite.model.baseURL,
      OPENAI_API_KEY: API_KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'checkout',
    });
    expect(child).toMatchObject({ code: 0, stderr: '' });
    const [, workflowId, calls, traceId] = /^(\S+): solved in (\d+) model calls; trace ([0-9a-f]{32})$/m.exec(child.stdout) ?? [];
    expect(workflowId).toMatch(/^agent-/);
    const spans = receiver.spans;
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    expect(spans.filter((s) => !byId.has(s.parentSpanId)).map((s) => s.name)).toEqual(['handle checkout request']);
    const [start] = named(spans, 'StartWorkflow:agent');
    expect(byId.get(start!.parentSpanId)?.name).toBe('handle checkout request');
    expect(named(spans, 'RunWorkflow:agent')[0]!.attributes['grove.run.id']).toBe(workflowId);
    expect(named(spans, /^chat /).length).toBe(Number(calls));
    expect(spans.every((s) => s.resource['service.name'] === 'checkout')).toBe(true);
  } finally {
    await receiver.close();
  }
}, 180_000);

/** This process's environment without OpenTelemetry or model settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OTEL_|OPENAI_|TEMPORAL_)/.test(k)));
}
