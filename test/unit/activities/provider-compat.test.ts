import OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/common';
import { classifyLlmError } from '../../../activities/llm/classify-error';
import { compatCompletion } from '../../../activities/llm/compat-completion';
import { adaptRequest, ProviderCompat, quirkFromRefusal } from '../../../activities/llm/provider-compat';
import { startModelServer, type ModelServer } from '../../../model-server';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const llamacpp = () => `${server.url}/profile/llamacpp/v1`;
const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: 'test', maxRetries: 0 });
const toolTurn: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Let x = 2 * 3 and y = 2x. Calculate (xy)(x^2).' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'multiply', arguments: '{"a":2,"b":3}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: '6' },
];
const multiply: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'multiply', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } } };

test('the llamacpp profile refuses exactly what llama-cpp-python refuses, with its messages', async () => {
  const c = client(llamacpp());
  await expect(c.chat.completions.create({ model: 'multiplier', messages: toolTurn, tools: [multiply] })).rejects.toMatchObject({ status: 500, message: expect.stringContaining('NoneType') });
  await expect(c.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'o', schema: { type: 'object' } } } })).rejects.toMatchObject({ status: 500, message: expect.stringContaining("Input should be 'text' or 'json_object'") });
  const one = await c.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }], n: 3 });
  expect(one.choices).toHaveLength(1);
});

test('each refusal is learned once per endpoint and model, and the request is sent again adapted', async () => {
  const compat = new ProviderCompat();
  const c = client(llamacpp());
  const first = await compatCompletion(c, compat, { model: 'multiplier', messages: toolTurn, tools: [multiply] }, { baseURL: llamacpp() });
  expect(first.response.choices[0]!.message.tool_calls?.length ?? 0).toBeGreaterThan(0);
  expect(first.notes).toEqual([expect.stringMatching(/^emptyContentForToolCalls: the server refused the request \(500: can only concatenate str/)]);
  const again = await compatCompletion(c, compat, { model: 'multiplier', messages: toolTurn, tools: [multiply] }, { baseURL: llamacpp() });
  expect(again.notes).toEqual([]); // remembered: no refusal the second time
  expect(compat.quirks(llamacpp(), 'multiplier')).toEqual({ emptyContentForToolCalls: true });
  expect(compat.quirks(`${server.url}/v1`, 'multiplier')).toEqual({}); // another endpoint knows nothing
});

test('structured output falls back json_schema → json_object with the schema, and the answer still matches it', async () => {
  const compat = new ProviderCompat();
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  const { response, notes } = await compatCompletion(client(llamacpp()), compat, { model: 'echo', messages: [{ role: 'user', content: 'apple' }], response_format: { type: 'json_schema', json_schema: { name: 'output', schema } } }, { baseURL: llamacpp() });
  expect(notes[0]).toMatch(/^noJsonSchema:/);
  expect(JSON.parse(response.choices[0]!.message.content!)).toEqual({ name: 'apple' });
  // And when json_object is refused too, the schema goes into the prompt instead.
  const prompted = adaptRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'o', schema } } }, { noJsonSchema: true, noJsonObject: true });
  expect(prompted.response_format).toBeUndefined();
  expect(prompted.messages.at(-1)).toEqual({ role: 'system', content: `Answer with JSON only, matching this JSON Schema:\n${JSON.stringify(schema)}.` });
});

test('fewer choices than n are completed by parallel single requests, and the notes say so', async () => {
  const compat = new ProviderCompat();
  const { response, notes } = await compatCompletion(client(llamacpp()), compat, { model: 'echo', messages: [{ role: 'user', content: 'hi' }], n: 3 }, { baseURL: llamacpp() });
  expect(response.choices.map((c) => c.index)).toEqual([0, 1, 2]);
  expect(notes).toEqual(['the server returned 1 choice for n=3', 'n=3 emulated by 3 requests']);
  expect(compat.quirks(llamacpp(), 'echo').noN).toBe(true);
});

test('tool_choice "required" becomes auto plus an instruction; an unrelated refusal is not a quirk', () => {
  const body = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }], tools: [multiply], tool_choice: 'required' as const };
  expect(quirkFromRefusal("tool_choice: Input should be 'none' or 'auto'", body, {})).toBe('noRequiredToolChoice');
  const adapted = adaptRequest(body, { noRequiredToolChoice: true });
  expect([adapted.tool_choice, adapted.messages.at(-1)?.role]).toEqual(['auto', 'system']);
  expect(quirkFromRefusal('the server is overloaded', { model: 'm', messages: [] }, {})).toBeUndefined();
  expect(() => new ProviderCompat('noN,bogus')).toThrow(/unknown quirk "bogus"/);
});

test('a validation error sent as 500 is not retried and keeps the whole provider message; an overload still is', () => {
  const body = { error: { message: '1 validation error for CreateChatCompletionRequest\nlogit_bias\n  Input should be a valid dictionary [type=dict_type]' } };
  const invalid = classifyLlmError(OpenAI.APIError.generate(500, body, undefined, new Headers()), { baseURL: 'http://h/v1', model: 'm' }) as ApplicationFailure;
  expect([invalid.type, invalid.nonRetryable]).toEqual(['GroveBadRequest', true]);
  expect(invalid.message).toContain('Input should be a valid dictionary [type=dict_type]');
  const busy = classifyLlmError(OpenAI.APIError.generate(503, { error: { message: 'server overloaded' } }, undefined, new Headers()), { baseURL: 'http://h/v1', model: 'm' }) as ApplicationFailure;
  expect(busy.nonRetryable).toBe(false);
});

test("a Retry-After is honoured up to the run's longest retry interval, not beyond", () => {
  const limited = (seconds: number) => OpenAI.APIError.generate(429, { error: { message: 'slow down' } }, undefined, new Headers({ 'retry-after': String(seconds) }));
  const ctx = { baseURL: 'http://h/v1', model: 'm', maxRetryDelayMs: 60_000 };
  expect((classifyLlmError(limited(3_600), ctx) as ApplicationFailure).nextRetryDelay).toBe(60_000);
  expect((classifyLlmError(limited(5), ctx) as ApplicationFailure).nextRetryDelay).toBe(5_000);
  // Outside an activity and with no cap given, the provider's delay stands.
  expect((classifyLlmError(limited(3_600), { baseURL: 'http://h/v1', model: 'm' }) as ApplicationFailure).nextRetryDelay).toBe(3_600_000);
});
