/**
 * Records the histories the replay test replays: one run of each ready-made workflow (and the
 * examples), against a fresh dev server and grove's scripted model server.
 * `npx tsx scripts/record-histories.ts` records every fixture that does not exist yet; one that
 * exists is kept as it is (a patched change adds a fixture under a new name, and the old one
 * goes on proving that runs started before the change still replay). `--only a,b` limits it.
 */
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryMessageStore } from '../activities/store/memory-message-store';
import { llmConfigFromEnv } from '../activities/llm/llm-config';
import { GroveClient } from '../client/grove-client';
import { startDevServer } from '../client/temporal-server/dev-server';
import { freePort } from '../client/temporal-server/ports';
import { checkMultiplication, multiplicationChecker } from '../examples/evaluators/multiplication-checker';
import { defineEvaluator } from '../activities/evaluators';
import { exampleTools } from '../examples/tools';
import { noteTool } from '../examples/tools/save-note';
import { startModelServer } from '../model-server';
import { createGroveWorker } from '../workers/create-worker';
import { writeWorkflowBundle } from '../workers/workflow-bundle';
import { createGroveTelemetry } from '../activities/telemetry/telemetry-registry';
import { telemetrySettingsFromEnv } from '../activities/telemetry/otel-settings';
import { groveClientInterceptors } from '../temporal/telemetry-interceptors';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, InMemoryMetricExporter } from '@opentelemetry/sdk-metrics';

const OUT = join(__dirname, '..', 'test', 'fixtures', 'histories');
const QUICKSTART = 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).';
const CODE_FIXER = {
  prompt: 'Write a Python function `is_palindrome(s)` that says whether a string reads the same backwards, ignoring case, spaces and punctuation. Answer with the code in one ```python block.',
  model: 'code-writer',
  language: 'python' as const,
  testCode: "assert is_palindrome('racecar')\nassert is_palindrome('A man, a plan, a canal: Panama')\nassert not is_palindrome('grove')",
  seed: 1,
};
const COLOR = 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const dir = mkdtempSync(join(tmpdir(), 'grove-record-'));
  const server = await startDevServer({ port: await freePort(), uiPort: false });
  const model = await startModelServer();
  try {
    const bundle = await writeWorkflowBundle(join(dir, 'bundle.js'), { workflowsPath: join(__dirname, '..', 'examples', 'all-workflows.ts') });
    const connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection });
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    const taskQueue = 'record';
    const worker = await createGroveWorker({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      llm: llmConfigFromEnv({}, { baseURL: model.baseURL, apiKey: 'k', defaultModel: 'multiplier-judge', sendCallKey: true }),
      store: new MemoryMessageStore(),
      tools: [...exampleTools, noteTool(join(dir, 'notes.jsonl'))],
      evaluators: [multiplicationChecker, flakyChecker()],
    });
    const grove = new GroveClient(client, taskQueue);
    // Runs recorded with tracing on (trace headers in their history): they must replay with it off too.
    const telemetry = createGroveTelemetry(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })!, {
      spanExporter: new InMemorySpanExporter(),
      metricExporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    });
    const tracedBundle = await writeWorkflowBundle(join(dir, 'bundle-traced.js'), { workflowsPath: join(__dirname, '..', 'examples', 'all-workflows.ts'), tracing: true });
    const tracedWorker = await createGroveWorker({
      connection: nativeConnection,
      taskQueue: 'record-traced',
      workflowBundle: tracedBundle,
      llm: llmConfigFromEnv({}, { baseURL: model.baseURL, apiKey: 'k', defaultModel: 'multiplier-judge', sendCallKey: true }),
      store: new MemoryMessageStore(),
      tools: [...exampleTools, noteTool(join(dir, 'notes-traced.jsonl'))],
      evaluators: [multiplicationChecker],
      telemetry,
    });
    // Heartbeats held back for 24 s (Temporal's own throttle) and calls that time out after 2 s: a
    // cancelled run's held call fails before the cancellation can reach it (grove-cancel-wins).
    const slowWorker = await createGroveWorker({
      connection: nativeConnection,
      taskQueue: 'record-slow-heartbeats',
      workflowBundle: bundle,
      llm: llmConfigFromEnv({}, { baseURL: model.baseURL, apiKey: 'k', defaultModel: 'multiplier-judge', sendCallKey: true, timeoutMs: 2_000 }),
      store: new MemoryMessageStore(),
      tools: exampleTools,
      evaluators: [multiplicationChecker],
      workerOptions: { maxHeartbeatThrottleInterval: 60_000 },
    });
    const slow = new GroveClient(client, 'record-slow-heartbeats');
    const traced = new GroveClient(new Client({ connection, interceptors: { workflow: groveClientInterceptors(telemetry) } }), 'record-traced');
    const runs: [string, () => Promise<{ workflowId: string }>][] = [
      ['generate', () => grove.run('generate', { prompt: 'Say hi!', model: 'echo' }, { workflowId: 'generate' })],
      ['airetry-color-game', () => grove.run('airetry', { prompt: COLOR, model: 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed: 1, checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }] }, { workflowId: 'airetry-color-game' })],
      ['airetry-extract-thompson', () => grove.run('airetry', { prompt: 'I just ate a delicious and juicy apple.', model: 'food-extractor', kind: 'extract', schema: { type: 'object', properties: { name: { type: 'string' }, adjectives: { type: 'array', items: { type: 'string' } } }, required: ['name'] }, config: { scoring: 'thompson', catchErrors: true, retryDelayMs: 100 }, seed: 3, checks: [{ kind: 'llmJudge', question: 'Does it name a food?', model: 'classifier?answer=yes' }] }, { workflowId: 'airetry-extract-thompson' })],
      ...(['mcts', 'astar', 'greedy', 'beam', 'cot'] as const).map((algorithm): [string, () => Promise<{ workflowId: string }>] => [
        `agent-${algorithm}`,
        () => grove.run('agent', { algorithm, prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: `agent-${algorithm}` }),
      ]),
      // The same MCTS run after tools could be declared fast (local activities: grove-fast-tools).
      ['agent-mcts-fast-tools', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-fast-tools' })],
      // Beam after a level's children were attached in beam order (grove-ordered-rounds).
      ['agent-beam-ordered', () => grove.run('agent', { algorithm: 'beam', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-beam-ordered' })],
      ['agent-mcts-parallel', () => grove.run('agent', { algorithm: 'mcts', parallelism: 3, prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.4&guess=0.4', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-parallel' })],
      // A custom evaluator declared fast: evaluations as local activities (grove-fast-evaluators).
      // (agent-mcts-custom-evaluator.json is the same run recorded before that patch: keep it as is.)
      ['agent-mcts-fast-evaluator', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'multiplication-checker' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-fast-evaluator' })],
      // A tight call budget under planned width (grove-planned-width): narrow, then unevaluated steps.
      // (agent-mcts-tight-budget.json is the same run recorded before that patch: keep it as is.)
      ['agent-mcts-planned-width', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, seed: 1, budget: { maxCalls: 15 } }, { workflowId: 'agent-mcts-planned-width' })],
      // Calls bounded by their retry window, attempts included (grove-retry-window): every run from then on.
      // (The fixtures above were recorded before that patch: keep them as they are.)
      ['generate-retry-window', () => grove.run('generate', { prompt: 'Say hi!', model: 'echo' }, { workflowId: 'generate-retry-window' })],
      ['agent-mcts-retry-window', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-retry-window' })],
      // The color game where a later check's retry drew an answer an earlier check had not seen: swept again (grove-verified-checks).
      // (airetry-color-game.json is a run recorded before that patch: keep it as is.)
      ['airetry-color-game-swept', () => grove.run('airetry', { prompt: COLOR, system: 'Act as a helpful AI assistant (run s4a-airetry-010)', model: 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed: 1, checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }] }, { workflowId: 'airetry-color-game-swept' })],
      // A custom evaluator that returns NaN every other time: those evaluations fail, the search goes on (grove-evaluation-failures).
      ['agent-mcts-evaluation-failures', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'flaky-checker' }, maxDepth: 8, seed: 1, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-evaluation-failures' })],
      ['example-color-game', () => client.workflow.execute('colorGame', { taskQueue, workflowId: 'example-color-game', args: [{ seed: 3 }] }).then(() => ({ workflowId: 'example-color-game' }))],
      ['example-llm-guesser', () => client.workflow.execute('llmGuesser', { taskQueue, workflowId: 'example-llm-guesser', args: [33, { seed: 2 }] }).then(() => ({ workflowId: 'example-llm-guesser' }))],
      ['session', () => steeredSession(grove, 'session')],
      // A code fixer that fails its tests once, then passes (Python in the sandbox), with its kind
      // named `code-fixer` (grove-kind-code-fixer). (code-fixer-former-kind-name.json is the same run
      // recorded before that patch, when it wrote GroveKind `codeFixer`: keep it as is.)
      ['code-fixer', () => grove.run('code-fixer', CODE_FIXER, { workflowId: 'code-fixer' })],
      // With tracing on: a parallel search (activities racing) and a steered session (updates).
      // (Both were recorded before grove-retry-window: keep them as they are.)
      ['agent-mcts-parallel-traced', () => traced.run('agent', { algorithm: 'mcts', parallelism: 3, prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.4&guess=0.4', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-parallel-traced' })],
      ['session-traced', () => steeredSession(traced, 'session-traced')],
      // Runs bound to the registry of the worker that starts them (grove-fleet-registry): tools and a fast custom evaluator.
      ['agent-mcts-fleet', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'multiplication-checker' }, maxDepth: 8, budget: { maxCalls: 40 } }, { workflowId: 'agent-mcts-fleet' })],
      ['session-fleet', () => steeredSession(grove, 'session-fleet')],
      // JSON Schema checks by the standard's rules (grove-json-schema-exact): a required name not under properties.
      ['airetry-json-schema-exact', () => grove.run('airetry', { prompt: 'Approve it? Answer in JSON.', model: 'echo', kind: 'extract', schema: { type: 'object' }, config: { maxRetries: 1, maxCalls: 3 }, checks: [{ kind: 'jsonSchema', name: 'has-approved', schema: { type: 'object', required: ['approved'] } }] }, { workflowId: 'airetry-json-schema-exact' }).then(() => ({ workflowId: 'airetry-json-schema-exact' }), () => ({ workflowId: 'airetry-json-schema-exact' }))],
      // A failed run: the LLM judge, given no model, judges with the run's model (grove-evaluator-run-model),
      // a player that cannot judge, so every evaluation fails and the run fails, recording its ending (grove-status-every-ending).
      ['agent-mcts-failed-judged-by-its-model', () => grove.run('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm' }, maxDepth: 4, seed: 1, budget: { maxCalls: 12 } }, { workflowId: 'agent-mcts-failed-judged-by-its-model' }).then(() => ({ workflowId: 'agent-mcts-failed-judged-by-its-model' }), () => ({ workflowId: 'agent-mcts-failed-judged-by-its-model' }))],
      // airetry and the code fixer counting model calls (requests), not samples (grove-model-calls): two samples per request here.
      ['airetry-model-calls', () => grove.run('airetry', { prompt: COLOR, model: 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed: 1, checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }] }, { workflowId: 'airetry-model-calls' })],
      ['code-fixer-model-calls', () => grove.run('code-fixer', CODE_FIXER, { workflowId: 'code-fixer-model-calls' })],
      // A search a person stopped mid-way (its requests held until the stop is in): it writes GroveStatus `stopped`.
      // (agent-mcts-stopped-as-exhausted.json is the same run recorded when a stop wrote `exhausted`: a status value is
      // not a command, so no patch; that fixture proves it still replays. Keep it as is.)
      ['agent-mcts-stopped', () => stoppedSearch(grove, model, 'agent-mcts-stopped')],
      // A search cancelled while a model call is in flight: the cancellation waits for the call to end (grove-cancel-waits).
      ['agent-mcts-cancelled', () => cancelledSearch(grove, model, 'agent-mcts-cancelled')],
      // The same, but the held call times out before the cancellation reaches it: still cancelled (grove-cancel-wins).
      ['agent-mcts-cancel-wins', () => cancelledSearch(slow, model, 'agent-mcts-cancel-wins')],
      // An answer with 100 tool calls: 64 run, one tool message answers the rest.
      ['agent-greedy-dropped-calls', () => grove.run('agent', { algorithm: 'greedy', prompt: 'Multiply everything.', tools: ['multiply', 'final_answer'], model: 'echo?calls=100', apiKwargs: { max_tokens: 20_000 }, evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 1, bFactor: 1 }, { workflowId: 'agent-greedy-dropped-calls' })],
    ];
    // `--only a,b` or `--only=a,b` records just those. A fixture that exists is never recorded
    // again: it is what runs started before a change recorded, which the change must still replay.
    const at = process.argv.indexOf('--only');
    const only = (at >= 0 ? process.argv[at + 1] : process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length))?.split(',');
    const unknown = only?.filter((name) => !runs.some(([n]) => n === name)) ?? [];
    if (unknown.length > 0) throw new Error(`no recording named ${unknown.join(', ')}`);
    mkdirSync(OUT, { recursive: true });
    const todo = runs.filter(([name]) => !only || only.includes(name)).filter(([name]) => {
      const kept = existsSync(join(OUT, `${name}.json`));
      if (kept) console.log(`kept ${name}.json: recorded histories are never overwritten (record a changed workflow under a new name)`);
      return !kept;
    });
    await slowWorker.runUntil(tracedWorker.runUntil(
      worker.runUntil(async () => {
        for (const [name, run] of todo) {
          const { workflowId } = await run();
          const history = await client.workflow.getHandle(workflowId).fetchHistory();
          writeFileSync(join(OUT, `${name}.json`), `${historyToJSON(history)}\n`);
          console.log(`recorded ${name} (${history.events?.length} events)`);
        }
      }),
    ));
    await telemetry.shutdown();
    await connection.close();
    await nativeConnection.close();
  } finally {
    await model.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The multiplication checker, except that every other evaluation returns NaN. */
function flakyChecker() {
  let calls = 0;
  return defineEvaluator({ name: 'flaky-checker', run: (trajectory) => (calls++ % 2 === 0 ? { score: NaN } : checkMultiplication(trajectory)) });
}

/** A session that is steered every way: a tool call approved, feedback, a rewind, a model-invoked rewind, a close. */
async function steeredSession(grove: GroveClient, workflowId: string): Promise<{ workflowId: string }> {
  const chat = grove.session(workflowId, { input: { model: 'concierge', tools: ['save_note'], rewindTool: true }, by: 'ana' });
  const saving = chat.send('Please save a note: buy milk');
  for (let i = 0; i < 200 && (await chat.pending().catch(() => [])).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  await chat.approve({ by: 'bob' });
  await saving;
  await chat.send('What is the capital of France?');
  await chat.feedback({ text: 'Be brief.', by: 'bob' });
  await chat.rewind({ n: -1, content: 'Paris.' });
  await chat.send('Rewind to message 9: nothing');
  await chat.close();
  return { workflowId };
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

/** An MCTS search cancelled while its first request is held: the request is aborted, and the run ends cancelled. */
async function cancelledSearch(grove: GroveClient, model: Awaited<ReturnType<typeof startModelServer>>, workflowId: string): Promise<{ workflowId: string }> {
  model.hold({ callKeyPrefix: `${workflowId}/` });
  const handle = await grove.start('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, seed: 1, budget: { maxCalls: 40 } }, { workflowId });
  while (model.stats().held.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await handle.cancel();
  await handle.result().catch(() => undefined);
  model.release();
  return { workflowId };
}

/** An MCTS search that a person stops while its first held request waits: the stop lands mid-search by construction. */
async function stoppedSearch(grove: GroveClient, model: Awaited<ReturnType<typeof startModelServer>>, workflowId: string): Promise<{ workflowId: string }> {
  model.hold({ callKeyPrefix: `${workflowId}/` });
  const handle = await grove.start('agent', { algorithm: 'mcts', prompt: QUICKSTART, tools: ['multiply', 'final_answer'], model: 'multiplier?p=0.2&guess=0.3', evaluator: { name: 'llm', model: 'multiplier-judge' }, maxDepth: 8, seed: 1, budget: { maxCalls: 40 } }, { workflowId });
  while (model.stats().held.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await grove.steer('ana').stop(workflowId, { reason: 'enough for today' });
  model.release();
  await handle.result();
  return { workflowId };
}
