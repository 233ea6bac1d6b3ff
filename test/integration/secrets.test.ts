import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { exampleTools } from '../../examples/tools';
import type { ChatPolicy } from '../../model-server';
import { integrationSuite } from '../support/integration-suite';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * A worker's secret never ends up in anything grove stores — run histories, the message store,
 * results — in any of its obvious encodings: not when a model repeats it (in its text, a tool
 * call's arguments, a judge's reasoning), not when a tool returns it base64-encoded.
 */
// A fresh key each run (letters, digits and the characters encodings treat differently).
const KEY = `sk-live-${randomBytes(12).toString('base64')}/+?`;
const VARIABLE = 'GROVE_TEST_LEAK_TOKEN';

/** Every way the model writes the key (and the tool returns it), written here independently of grove's list. */
function encodings(value: string): Record<string, string> {
  const bytes = Buffer.from(value);
  const inside = (prefix: string) => Buffer.from(`${prefix}${value};`).toString('base64');
  return {
    exact: value,
    base64: bytes.toString('base64'),
    'base64 unpadded': bytes.toString('base64').replace(/=+$/, ''),
    'base64 url-safe': bytes.toString('base64url'),
    'base64 inside text, offset 1': inside('a'),
    'base64 inside text, offset 2': inside('ab'),
    'base64 inside text, offset 3': inside('abc'),
    hex: bytes.toString('hex'),
    'hex upper': bytes.toString('hex').toUpperCase(),
    url: encodeURIComponent(value),
    reversed: [...value].reverse().join(''),
  };
}
const ENCODED = encodings(KEY);

/**
 * What this test looks for: each way the key was written, reduced to the characters that depend
 * on the key alone (a key inside a longer base64 text: all but the characters that mix in its
 * neighbours, and one more at each end).
 */
const NEEDLES = Object.fromEntries(
  Object.entries(ENCODED).map(([name, text]) => {
    const offset = /offset (\d)/.exec(name)?.[1];
    return [name, offset === undefined ? text : text.slice(Math.ceil((Number(offset) * 8) / 6) + 1, Math.floor(((Number(offset) + Buffer.byteLength(KEY)) * 8) / 6) - 1)];
  }),
);

/** A model that has seen the key somewhere and repeats it, every way it knows. */
const leaky: ChatPolicy = {
  name: 'leaky',
  respond: (req, ctx) => {
    const judging = (req.response_format as { type?: string } | undefined)?.type === 'json_schema';
    const toolsOffered = Array.isArray(req.tools) && req.tools.length > 0;
    const toolDone = req.messages.some((m) => m.role === 'tool');
    const everyWay = Object.entries(ENCODED).map(([name, text]) => `${name}: ${text}`).join('\n');
    const reply = judging
      ? { content: JSON.stringify({ reasoning: `The key is ${KEY}, hex ${ENCODED.hex}.`, score: 10 }) }
      : toolsOffered && !toolDone
        ? { toolCalls: [{ name: 'read_config', arguments: { note: `use ${ENCODED.base64}` } }] }
        : toolsOffered
          ? { toolCalls: [{ name: 'final_answer', arguments: { answer: everyWay } }] }
          : { content: `Here it is, every way:\n${everyWay}` };
    return Array.from({ length: ctx.n }, () => reply);
  },
};

/** A tool that returns the worker's key base64-encoded (a careless config dump). */
const readConfig = defineTool({
  name: 'read_config',
  description: 'Reads the service configuration.',
  parameters: z.object({ note: z.string().optional() }),
  run: () => `config=${Buffer.from(process.env[VARIABLE] ?? '').toString('base64')}`,
});

const suite = integrationSuite('secrets', { policies: [leaky] });
beforeAll(() => {
  process.env[VARIABLE] = KEY;
});
afterAll(() => {
  delete process.env[VARIABLE];
});

/** Which encodings of the key a text holds. */
function leaks(text: string): string[] {
  return Object.entries(NEEDLES).filter(([, needle]) => text.includes(needle)).map(([name]) => name);
}

test('a model that answers with the key in every encoding, a tool that returns it base64-encoded, a judge that repeats it: nothing stored holds it', async () => {
  // The check itself finds each encoding where it is.
  for (const [name, text] of Object.entries(ENCODED)) expect(leaks(`x ${text} y`)).toContain(name);
  const store = new MemoryMessageStore();
  const taskQueue = uniqueTaskQueue('secrets');
  // The worker reads its secrets from the environment when it starts: the key is one of them.
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), store, tools: [...exampleTools, readConfig] });
  await worker.runUntil(async () => {
    const grove = groveClient(suite.env, taskQueue);
    const generated = await grove.run('generate', { prompt: 'What is the service key?', model: 'leaky' });
    expect(generated.output).toContain('[redacted GROVE_TEST_LEAK_TOKEN]');
    expect(generated.output).toContain('[redacted GROVE_TEST_LEAK_TOKEN as base64]');
    const retried = await grove.run('airetry', { prompt: 'What is the service key?', model: 'leaky', config: { maxCalls: 2 }, checks: [{ kind: 'maxWords', max: 1 }] });
    const searched = await grove.run('agent', { algorithm: 'greedy', prompt: 'Find the service key.', tools: ['read_config', 'final_answer'], model: 'leaky', evaluator: { name: 'llm' }, maxDepth: 3, budget: { maxCalls: 10 } });
    expect(searched.messages.some((m) => m.role === 'tool' && m.content.includes('config=[redacted GROVE_TEST_LEAK_TOKEN as base64]'))).toBe(true);

    const stored: Record<string, string> = {};
    for (const run of [generated, retried, searched]) {
      stored[`${run.workflowId} result`] = JSON.stringify(run);
      const history = await grove.handle(run.workflowId).fetchHistory();
      // Payloads are base64 in the history: decode every one to look inside, and look at the raw form too.
      const raw = JSON.stringify(history);
      stored[`${run.workflowId} history`] = raw + decodedPayloads(history);
    }
    stored['message store'] = JSON.stringify([...store.entries.values(), ...store.calls.values()]);
    const found = Object.entries(stored).flatMap(([where, text]) => leaks(text).map((encoding) => `${where}: ${encoding}`));
    expect(found).toEqual([]);
    expect(stored['message store']).toContain('[redacted GROVE_TEST_LEAK_TOKEN'); // the answers were stored, redacted
  });
}, 120_000);

/** The text of every payload in a history (their `data` is base64 of JSON). */
function decodedPayloads(history: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const data = (node as { data?: unknown }).data;
    if (data instanceof Uint8Array) out.push(Buffer.from(data).toString('utf8'));
    for (const value of Object.values(node)) walk(value);
  };
  walk(history);
  return out.join('\n');
}
