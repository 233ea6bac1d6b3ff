import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { MessageStore } from '../../activities/store/message-store';
import { openStore } from '../../activities/store/open-store';
import { startLocalModel } from '../../client/local/ensure-model';
import { startModelServer } from '../../model-server';
import { createGroveWorker } from '../../workers/create-worker';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';

const ROOT = join(__dirname, '..', '..');
/** The scripted model's pace: a token every 20 ms (about 50 tokens a second, a fast hosted model's). */
const TOKEN_MS = 20;
const PROMPT = 'Tell me, in a few sentences, how a river finds its way to the sea.';

interface ModelUnderTest {
  name: string;
  baseURL: string;
  model: string;
  maxTokens: number;
  close(): Promise<void>;
}

/**
 * Time to first token, and what streaming costs in history. The first token of a `generate`
 * run's answer as the model server sends it (a streamed request straight to it), as a reader of
 * `GroveClient.events` sees it (from the run's start), and as `grove run --stream` prints it (a
 * new process, from its spawn) — for the scripted model (a token every 20 ms) and the embedded
 * local model, with the folder store and with PostgreSQL. And the history of the same airetry
 * run with streaming on and off: bytes per model call, read from the runs' fetched histories.
 */
export const streaming: Benchmark = {
  name: 'streaming',
  title: 'Streaming: time to first token (model server, GroveClient.events, grove run) and history bytes per model call, streaming on vs off',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const reps = env.quick ? 3 : 7;
    const notes: string[] = [];
    const models: ModelUnderTest[] = [];
    const scripted = await startModelServer({ tokenDelayMs: TOKEN_MS });
    models.push({ name: `scripted (${TOKEN_MS} ms a token)`, baseURL: scripted.baseURL, model: 'echo', maxTokens: 64, close: () => scripted.close() });
    try {
      const local = await startLocalModel();
      models.push({ name: 'embedded local model (SmolLM2-135M)', baseURL: local.baseURL, model: 'smollm2', maxTokens: 48, close: () => local.close() });
    } catch (err) {
      notes.push(`The embedded local model is not measured here: ${(err as Error).message}`);
    }
    const rows: Row[] = [];
    const data: Record<string, unknown> = { reps, tokenMs: TOKEN_MS };
    try {
      for (const m of models) {
        const own = await serverFirstToken(m, reps);
        for (const storeKind of ['folder', 'postgres'] as const) {
          const url = storeKind === 'folder' ? mkdtempSync(join(env.dir, 'stream-store-')) : await env.postgresUrl();
          const measured = await throughGrove(env, m, url, reps);
          rows.push({
            model: m.name,
            store: storeKind,
            'model server ms': spread(own).text,
            'GroveClient.events ms (from run start)': spread(measured.events).text,
            'grove run ms (from process spawn)': spread(measured.cli).text,
            'whole answer, grove run ms': spread(measured.cliDone).text,
          });
          data[`${m.model}/${storeKind}`] = { server: own, ...measured };
        }
      }
      const history = await historyPerCall(env, scripted.baseURL);
      data.history = history;
      return {
        tables: [
          { title: `Time to first token, median (min–max) of ${reps}`, rows },
          {
            title: 'History of the same airetry run (the color game, n = 2), streaming on vs off',
            rows: (['on', 'off'] as const).map((k) => ({
              streaming: k,
              'model calls': history[k].calls,
              'llmChat events, bytes per model call': history[k].perCall.toFixed(0),
              'all events, bytes': history[k].all,
              'history size the server reports (times included)': history[k].reported,
              'llmChat results': history.identical ? 'identical, byte for byte' : 'DIFFERENT',
            })),
          },
        ],
        data,
        notes: [
          'Model server: a streamed request straight to it (openai SDK), request to first content chunk. GroveClient.events: GroveClient.start of a generate run to the first token event with text, the reader opening the store on its own as another process would. grove run: spawning `grove run generate --stream` (compiled CLI) to the first character of the answer on its stderr; a new process pays for starting Node and connecting (about a second here).',
          'A token event is published at most every 50 ms and read on notification: the folder store by file-system events (a 250 ms poll behind them), PostgreSQL by LISTEN/NOTIFY (a 1 s poll behind it).',
          'History: the same workflow id for both runs (the first closed before the second started), each on its own worker and store; bytes are history events as the server encodes them, without their times (a timestamp takes a byte or two more or less with its value, streaming or not); the size the server reports includes them.',
          ...notes,
        ],
      };
    } finally {
      for (const m of models) await m.close();
    }
  },
};

/** Request to first content chunk, straight to the model server. */
async function serverFirstToken(m: ModelUnderTest, reps: number): Promise<number[]> {
  const client = new OpenAI({ baseURL: m.baseURL, apiKey: 'bench', maxRetries: 0 });
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    const stream = await client.chat.completions.create({ model: m.model, messages: [{ role: 'user', content: `${PROMPT} (${i})` }], max_tokens: m.maxTokens, stream: true });
    let first: number | undefined;
    for await (const chunk of stream) if (first === undefined && chunk.choices[0]?.delta.content) first = performance.now() - t0;
    out.push(first ?? NaN);
  }
  return out;
}

/** First token through grove: as `GroveClient.events` reads it, and as `grove run --stream` prints it. */
async function throughGrove(env: BenchEnv, m: ModelUnderTest, storeUrl: string, reps: number) {
  const taskQueue = benchQueue('streaming');
  const workerStore = openStore(storeUrl);
  const readerStore = openStore(storeUrl); // a reader of its own, as another process has
  const worker = await createGroveWorker({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: env.bundlePath },
    telemetry: false,
    llm: env.llm({ baseURL: m.baseURL }),
    store: workerStore,
  });
  const grove = env.grove(taskQueue);
  const events: number[] = [];
  const cli: number[] = [];
  const cliDone: number[] = [];
  try {
    await worker.runUntil(async () => {
      for (let i = 0; i < reps; i++) {
        const input = { prompt: `${PROMPT} (${i})`, model: m.model, apiKwargs: { max_tokens: m.maxTokens } };
        const t0 = performance.now();
        const handle = await grove.start('generate', input);
        events.push(await firstTokenEvent(grove.events(handle.workflowId, { store: readerStore }), t0));
        await handle.result();
        const timed = await cliFirstToken(env, taskQueue, storeUrl, m, `${PROMPT} [${i}]`);
        cli.push(timed.first);
        cliDone.push(timed.done);
      }
    });
  } finally {
    await Promise.all([workerStore.close(), readerStore.close()]);
  }
  return { events, cli, cliDone };
}

async function firstTokenEvent(events: AsyncIterable<{ type: string; text?: string }>, t0: number): Promise<number> {
  let first = NaN;
  for await (const e of events) if (Number.isNaN(first) && e.type === 'token' && e.text) first = performance.now() - t0; // read on to the run's end
  return first;
}

/** `grove run generate --stream` in its own process: spawn to the answer's first character on stderr, and to its exit. */
function cliFirstToken(env: BenchEnv, taskQueue: string, storeUrl: string, m: ModelUnderTest, prompt: string): Promise<{ first: number; done: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), 'run', 'generate', '--prompt', prompt, '--model', m.model, '--stream'], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: env.address, GROVE_TASK_QUEUE: taskQueue, GROVE_STORE_URL: storeUrl, OPENAI_BASE_URL: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined },
    });
    let stderr = '';
    let first = NaN;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      const header = stderr.indexOf('──\n');
      if (Number.isNaN(first) && header >= 0 && stderr.length > header + 3) first = performance.now() - t0;
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ first, done: performance.now() - t0 }) : reject(new Error(`grove run exited ${code}: ${stderr.slice(-400)}`))));
  });
}

/** The same airetry run with streaming on and off: history bytes per model call. */
async function historyPerCall(env: BenchEnv, baseURL: string) {
  const workflowId = benchQueue('streaming-history-run');
  const input = { prompt: 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only', model: 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed: 1, checks: [{ kind: 'maxWords' as const, max: 1 }, { kind: 'lowercase' as const }, { kind: 'startsWith' as const, value: 'y' }] };
  const out = {} as Record<'on' | 'off', Awaited<ReturnType<typeof llmChatBytes>>>;
  const base = benchQueue('streaming-history');
  for (const [key, stream] of [['on', true], ['off', false]] as const) {
    const taskQueue = `${base}-${stream ? 1 : 2}`; // task queue names of one length: they are in the events
    const store: MessageStore = openStore('memory:');
    const worker = await createGroveWorker({ connection: env.nativeConnection, taskQueue, workflowBundle: { codePath: env.bundlePath }, telemetry: false, llm: env.llm({ baseURL, stream }), store });
    out[key] = await worker.runUntil(async () => {
      const handle = await env.grove(taskQueue).start('airetry', input, { workflowId });
      await handle.result();
      return llmChatBytes(handle, (await handle.describe()).runId, env);
    });
    await store.close();
  }
  return { ...out, identical: out.on.results.join() === out.off.results.join() };
}

/**
 * A run's history in bytes: its llmChat events (scheduled, started, completed) per model call and
 * all its events, each encoded as the server keeps it but without its time (a timestamp's
 * encoded length varies by a byte or two with its value: not a cost of anything); and the size
 * the server reports, times included.
 */
async function llmChatBytes(handle: WorkflowHandle, runId: string, env: BenchEnv) {
  const events = (await env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? [];
  const chat = new Set(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'llmChat').map((e) => String(e.eventId)));
  const size = (e: temporal.api.history.v1.IHistoryEvent) => temporal.api.history.v1.HistoryEvent.encode({ ...e, eventTime: null }).finish().length;
  let bytes = 0;
  let all = 0;
  const results: string[] = [];
  for (const e of events) {
    all += size(e);
    const of = e.activityTaskScheduledEventAttributes ? String(e.eventId) : String(e.activityTaskStartedEventAttributes?.scheduledEventId ?? e.activityTaskCompletedEventAttributes?.scheduledEventId ?? '');
    if (!chat.has(of)) continue;
    bytes += size(e);
    const result = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
    if (result) results.push(Buffer.from(result).toString('base64'));
  }
  const reported = Number((await env.client.workflow.getHandle(handle.workflowId, runId).describe()).raw.workflowExecutionInfo?.historySizeBytes ?? 0);
  return { calls: chat.size, perCall: bytes / chat.size, all, reported, results };
}
