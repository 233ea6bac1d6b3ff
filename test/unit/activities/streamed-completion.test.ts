/**
 * Model calls that stream: the streamed answer is assembled into exactly the completion a
 * whole answer is, servers that refuse, ignore or half-support streaming fall back (once, said
 * in a note), and a stream that is cancelled, cut or goes quiet never becomes a truncated answer.
 */
import OpenAI from 'openai';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { compatCompletion, type CompatOptions } from '../../../activities/llm/compat-completion';
import { llmConfigFromEnv } from '../../../activities/llm/llm-config';
import { ProviderCompat, quirkFromRefusal } from '../../../activities/llm/provider-compat';
import { MalformedStreamError, StreamAssembly, type PartialAnswer } from '../../../activities/llm/stream-assembly';
import { startModelServer, type ModelServer } from '../../../model-server';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const at = (profile?: string) => (profile ? `${server.url}/profile/${profile}/v1` : server.baseURL);
const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: 'test', maxRetries: 0 });
const lookup: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } };
const user = (content: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content }];

/** The same call, whole and streamed, on fresh compatibility memories. */
async function bothWays(body: OpenAI.ChatCompletionCreateParamsNonStreaming, baseURL = at(), more: Partial<CompatOptions> = {}) {
  const whole = await compatCompletion(client(baseURL), new ProviderCompat(), body, { baseURL });
  const streamed = await compatCompletion(client(baseURL), new ProviderCompat(), body, { baseURL, stream: true, ...more });
  return { whole, streamed };
}

/** What grove keeps of a completion (chat.ts reads these fields and no others). */
const kept = (c: OpenAI.ChatCompletion) => ({ model: c.model, usage: c.usage, choices: c.choices.map((x) => ({ index: x.index, message: { content: x.message.content, tool_calls: x.message.tool_calls, refusal: x.message.refusal ?? null }, finish: x.finish_reason })) });

test.each([
  ['a text answer', { model: 'echo', messages: user('Say hi to the whole room.') }],
  ['n = 2', { model: 'color-guesser', messages: user('Guess what color I am thinking. It could be: blue, red, black, white, yellow.'), n: 2 }],
  ['tool calls', { model: 'echo?calls=2', messages: user('look it up'), tools: [lookup] }],
  ['a cut answer', { model: 'echo', messages: user('this answer is cut by max_tokens'), max_tokens: 2 }],
  ['2,000 tool calls', { model: 'echo?calls=2000', messages: user('call them all'), tools: [lookup], max_tokens: 100_000 }],
  ['a 1 MB answer (several tokens a chunk past 2,048)', { model: `echo?pad=${1024 * 1024}`, messages: user('a long one') }],
])('%s: the streamed completion is the whole one — content, tool calls, choices, finish reasons, usage, model', async (_name, body) => {
  const seen: Map<number, PartialAnswer>[] = [];
  const { whole, streamed } = await bothWays(body as OpenAI.ChatCompletionCreateParamsNonStreaming, at(), { onProgress: (current) => seen.push(current()) });
  expect(kept(streamed.response)).toEqual(kept(whole.response));
  expect(streamed.notes).toEqual([]);
  expect(seen.length).toBeGreaterThan(1); // it arrived a piece at a time
  const requests = server.stats().requests;
  expect(requests).toHaveLength(2); // one request each way: streaming paid nothing extra
});

test('a server that refuses stream: true is asked again without it, once: remembered, with a note', async () => {
  const compat = new ProviderCompat();
  const c = client(at('no-streaming'));
  const first = await compatCompletion(c, compat, { model: 'echo', messages: user('hi') }, { baseURL: at('no-streaming'), stream: true });
  expect(first.response.choices[0]!.message.content).toBe('Echo: hi');
  expect(first.notes).toEqual([expect.stringMatching(/^noStream: the server refused the request \(400: Streaming is not supported/)]);
  const again = await compatCompletion(c, compat, { model: 'echo', messages: user('hi') }, { baseURL: at('no-streaming'), stream: true });
  expect(again.notes).toEqual([]);
  expect(compat.quirks(at('no-streaming'), 'echo')).toEqual({ noStream: true });
  expect(server.stats().requests.map((r) => r.status)).toEqual([400, 200, 200]);
});

test('a server that ignores stream: true is read whole, in one request, and remembered', async () => {
  const compat = new ProviderCompat();
  const { whole } = await bothWays({ model: 'echo', messages: user('plain') }, at('ignores-streaming'));
  server.reset();
  const got = await compatCompletion(client(at('ignores-streaming')), compat, { model: 'echo', messages: user('plain') }, { baseURL: at('ignores-streaming'), stream: true });
  expect(kept(got.response)).toEqual(kept(whole.response));
  expect(got.notes).toEqual(['noStream: the server answered stream: true with a whole completion, so it is no longer asked to stream']);
  expect(compat.quirks(at('ignores-streaming'), 'echo').noStream).toBe(true);
  expect(server.stats().total.received).toBe(1);
});

test('a server that streams without usage is asked again whole, so no token goes uncounted', async () => {
  const compat = new ProviderCompat();
  const got = await compatCompletion(client(at('no-stream-usage')), compat, { model: 'echo', messages: user('count me') }, { baseURL: at('no-stream-usage'), stream: true });
  expect(got.response.usage?.total_tokens).toBeGreaterThan(0);
  expect(got.notes).toEqual([expect.stringMatching(/^noStream: the server streamed without usage/)]);
  expect(compat.quirks(at('no-stream-usage'), 'echo').noStream).toBe(true);
});

test('n emulated by single requests streams every choice under its index in the call', async () => {
  const indexes = new Set<number>();
  const body = { model: 'echo', messages: user('three'), n: 3 };
  // A server known to ignore n (declared, as GROVE_LLM_COMPAT=noN does): one request per choice.
  const whole = await compatCompletion(client(at()), new ProviderCompat('noN'), body, { baseURL: at() });
  const streamed = await compatCompletion(client(at()), new ProviderCompat('noN'), body, { baseURL: at(), stream: true, onProgress: (current) => [...current().keys()].forEach((i) => indexes.add(i)) });
  expect(kept(streamed.response)).toEqual(kept(whole.response));
  expect([...indexes].sort()).toEqual([0, 1, 2]);
  expect(streamed.notes).toEqual(['n=3 emulated by 3 requests']);
  expect(server.stats().requests.filter((r) => r.streamed)).toHaveLength(3);
});

test('llama.cpp’s server streams without usage (as measured): the first call is asked again whole, later ones are not streamed', async () => {
  const compat = new ProviderCompat();
  const first = await compatCompletion(client(at('llamacpp')), compat, { model: 'echo', messages: user('one') }, { baseURL: at('llamacpp'), stream: true });
  expect(first.notes).toEqual([expect.stringMatching(/^noStream: the server streamed without usage/)]);
  const second = await compatCompletion(client(at('llamacpp')), compat, { model: 'echo', messages: user('two') }, { baseURL: at('llamacpp'), stream: true });
  expect(second.notes).toEqual([]);
  expect(server.stats().requests.map((r) => r.streamed ?? false)).toEqual([true, false, false]);
});

test('a stream cancelled mid-answer throws the cancellation, never a truncated answer', async () => {
  server.hold({ model: 'echo' }, { afterTokens: 2 });
  const controller = new AbortController();
  const seen: string[] = [];
  const call = compatCompletion(client(at()), new ProviderCompat(), { model: 'echo', messages: user('cancel me') }, { baseURL: at(), stream: true, signal: controller.signal, onProgress: (current) => seen.push(current().get(0)?.content ?? '') });
  await until(() => seen.at(-1) === 'Echo: ca', () => JSON.stringify(seen));
  const reason = new CancelledFailure('run cancelled');
  controller.abort(reason);
  await expect(call).rejects.toBe(reason);
  await until(() => server.stats().total.aborted === 1); // the request went away with the call
  expect(server.release()).toEqual([]);
});

test('a stream that goes quiet mid-answer fails as a retryable GroveTimeout; one cut off fails as a retryable GroveNetworkError', async () => {
  server.hold({ model: 'echo' }, { afterTokens: 1 });
  const quiet = await compatCompletion(client(at()), new ProviderCompat(), { model: 'echo', messages: user('quiet') }, { baseURL: at(), stream: true, idleTimeoutMs: 300 }).catch((e: unknown) => e);
  expect(quiet).toBeInstanceOf(ApplicationFailure);
  expect(quiet).toMatchObject({ type: 'GroveTimeout', nonRetryable: false, message: expect.stringMatching(/sent no chunk for 300 ms mid-answer/) });
  server.release();

  const cutting = await startModelServer();
  try {
    cutting.hold({}, { afterTokens: 2 });
    const call = compatCompletion(client(cutting.baseURL), new ProviderCompat(), { model: 'echo', messages: user('cut') }, { baseURL: cutting.baseURL, stream: true }).catch((e: unknown) => e);
    await until(() => cutting.stats().held.length === 1);
    await cutting.close(); // the connection closes mid-answer
    expect(await call).toMatchObject({ type: 'GroveNetworkError', nonRetryable: false, message: expect.stringMatching(/stream/) });
  } finally {
    await cutting.close();
  }
});

test('a chunk whose index is not a whole number is no completion: a retryable GroveMalformedResponse', () => {
  const assembly = new StreamAssembly();
  const chunk = (index: number) => ({ id: 'c', object: 'chat.completion.chunk' as const, created: 0, model: 'm', choices: [{ index, delta: { content: 'x' }, finish_reason: null }] });
  expect(() => assembly.add(chunk(-1))).toThrow(MalformedStreamError);
  expect(() => assembly.add(chunk(1.5))).toThrow(/index 1.5 \(expected a whole number from 0\)/);
  assembly.add(chunk(7)); // a sparse index is kept by its number
  expect([...assembly.partials().keys()]).toEqual([7]);
});

test('a refusal that names streaming is the noStream quirk, before any other', () => {
  const body = { model: 'm', messages: user('x'), response_format: { type: 'json_schema' as const, json_schema: { name: 'o' } } };
  expect(quirkFromRefusal('stream_options is not supported with response_format json_schema', body, {}, true)).toBe('noStream');
  expect(quirkFromRefusal('stream_options is not supported with response_format json_schema', body, {}, false)).toBe('noJsonSchema');
  expect(quirkFromRefusal('upstream connection refused', { model: 'm', messages: user('x') }, {}, true)).toBeUndefined();
  expect(new ProviderCompat('noStream').quirks('u', 'm')).toEqual({ noStream: true });
});

test('GROVE_STREAM=0 turns streaming off; anything but 0/1/true/false is refused naming the variable', () => {
  const base = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  expect(llmConfigFromEnv(base).stream).toBe(true);
  expect(llmConfigFromEnv({ ...base, GROVE_STREAM: '0' }).stream).toBe(false);
  expect(llmConfigFromEnv({ ...base, GROVE_STREAM: '0' }, { stream: true }).stream).toBe(true);
  expect(() => llmConfigFromEnv({ ...base, GROVE_STREAM: 'off' })).toThrow(/^GROVE_STREAM=off is invalid: must be 0 or 1/);
});

async function until(predicate: () => boolean, what: () => string = () => ''): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!predicate()) throw new Error(`timed out waiting ${what()}`);
}
