import { startLocalModel } from '../../client/local/ensure-model';
import { prepareLlamaCpp, startLlamaCppServer } from '../../client/local/llamacpp-server';
import type { Benchmark, Row } from '../lib/benchmark';
import { benchQueue, type BenchEnv } from '../lib/bench-env';

interface Scenario {
  name: string;
  kind: 'generate' | 'airetry' | 'agent';
  input: Record<string, unknown>;
}

const SCENARIOS: Scenario[] = [
  { name: 'generate', kind: 'generate', input: { prompt: 'Name a fruit.', apiKwargs: { max_tokens: 16, seed: 1 } } },
  {
    name: 'airetry (2 checks, n=2)',
    kind: 'airetry',
    input: { prompt: 'What is the capital of France? Answer with 1 word only', config: { nSamples: 2, maxCalls: 6 }, apiKwargs: { n: 2, max_tokens: 8 }, seed: 1, checks: [{ kind: 'contains', value: 'Paris' }, { kind: 'maxWords', max: 6 }] },
  },
  {
    name: 'extract (JSON schema)',
    kind: 'airetry',
    input: { prompt: 'Extract the person as JSON with "name" and "age": "Maria is 34 years old."', kind: 'extract', schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'] }, config: { maxCalls: 3 }, apiKwargs: { max_tokens: 64 }, checks: [{ kind: 'jsonSchema', schema: { type: 'object', required: ['name', 'age'] } }] },
  },
  ...(['mcts', 'greedy'] as const).map((algorithm) => ({
    name: `agent ${algorithm} (tools + LLM evaluator)`,
    kind: 'agent' as const,
    input: { algorithm, prompt: 'Let x = 3 * 4. Use the multiply tool, then give the final answer.', tools: ['multiply', 'final_answer'], evaluator: { name: 'llm' }, maxDepth: 3, budget: { maxCalls: 8 }, seed: 1 },
  })),
];

/**
 * grove on real models: SmolLM2-135M-Instruct behind grove's embedded local model server and
 * behind llama.cpp's server (llama-cpp-python from PyPI), the same scenarios on each: whether
 * they work, how many model calls, seconds per call, and which compatibility fallbacks grove
 * had to take (read from the activities' results in each run's history).
 */
export const realModels: Benchmark = {
  name: 'real-models',
  title: 'Real models: grove on its local model and on llama.cpp’s server (SmolLM2-135M, CPU)',
  needsTemporal: true,
  async run(env) {
    const local = await startLocalModel({ log: () => {} });
    prepareLlamaCpp({ log: (l) => console.log(`  ${l}`) });
    const llamacpp = await startLlamaCppServer();
    const rows: Row[] = [];
    try {
      for (const [server, baseURL] of [['local model', local.baseURL], ['llama.cpp server', llamacpp.baseURL]] as const) {
        for (const scenario of SCENARIOS) rows.push(await runScenario(env, server, baseURL, scenario));
      }
    } finally {
      await local.close();
      await llamacpp.stop();
    }
    return {
      tables: [{ title: this.title, rows }],
      data: { rows },
      notes: [
        'works: the run completed and met its goal (an answer; checks passed; a solution) with no fallback; degraded: it completed, but only through fallbacks or without meeting its goal; broken: the run failed.',
        'Fallbacks are what grove learned from the server and did instead (the activity results say so): content "" on tool-call turns, json_object + schema instead of json_schema, n filled by single requests.',
        'A 135M-parameter model on 2 CPU cores: the point is grove’s behaviour on real servers, not the model’s skill.',
      ],
    };
  },
};

async function runScenario(env: BenchEnv, server: string, baseURL: string, scenario: Scenario): Promise<Row> {
  const taskQueue = benchQueue('real');
  const worker = await env.worker(taskQueue, { llm: { baseURL, defaultModel: 'smollm2', timeoutMs: 120_000 } });
  const running = worker.run();
  const started = performance.now();
  let status = 'broken';
  let calls = 0;
  let fallbacks = '';
  let detail = '';
  try {
    const grove = env.grove(taskQueue);
    const handle = await grove.start(scenario.kind, scenario.input as never);
    const result = (await handle.result()) as Record<string, any>;
    calls = scenario.kind === 'generate' ? 1 : scenario.kind === 'agent' ? result.counters.llmCalls : result.calls;
    const met = scenario.kind === 'generate' ? Boolean(result.output) : scenario.kind === 'agent' ? result.isSolution : result.success;
    fallbacks = await fallbacksOf(env, handle.workflowId);
    status = met && !fallbacks ? 'works' : 'degraded';
    detail = scenario.kind === 'agent' ? `stop: ${result.stop.kind}, score ${Number(result.score).toFixed(2)}` : scenario.kind === 'generate' ? '' : `success: ${result.success}`;
  } catch (err) {
    detail = (err as Error).message.slice(0, 120);
  } finally {
    worker.shutdown();
    await running;
  }
  const seconds = (performance.now() - started) / 1000;
  return { server, scenario: scenario.name, status, 'model calls': calls, 's per call': calls ? Number((seconds / calls).toFixed(2)) : '', fallbacks: fallbacks || '-', outcome: detail };
}

async function fallbacksOf(env: BenchEnv, workflowId: string): Promise<string> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const text = JSON.stringify(history, (key, value) => (key === 'data' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value));
  const found = new Set<string>();
  if (text.includes('emptyContentForToolCalls')) found.add('content ""');
  if (text.includes('noJsonSchema')) found.add('json_object+schema');
  if (text.includes('noJsonObject')) found.add('schema in prompt');
  if (text.includes('noRequiredToolChoice')) found.add('tool_choice auto');
  if (/n=\d+ emulated/.test(text)) found.add('n by single requests');
  return [...found].join(', ');
}
