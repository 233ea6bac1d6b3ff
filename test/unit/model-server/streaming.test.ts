/**
 * `stream: true` on the scripted server: OpenAI's `chat.completion.chunk` events carrying the
 * very completion `stream: false` returns, holds mid-stream, and the profiles of servers that
 * refuse or ignore streaming.
 */
import type OpenAI from 'openai';
import { inProcessOpenAI } from '../../../model-server';
import { type Harness, harnessForFile, rawPost, until } from './helpers';

const tool = { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } };
const ask = (model: string, content: string, more: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user' as const, content }], ...more });

/** The events of a streamed answer, read raw: each `data:` payload as sent. */
async function sseEvents(url: string, body: unknown): Promise<{ status: number; type: string | null; events: string[] }> {
  const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer test' }, body: JSON.stringify(body) });
  const text = await res.text();
  const events = text.split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
  return { status: res.status, type: res.headers.get('content-type'), events };
}

/** What a client assembles from the chunks (the simplest correct assembly, written out for the test). */
function assemble(chunks: OpenAI.ChatCompletionChunk[]) {
  const choices: Array<{ content: string | null; calls: Array<{ id: string; name: string; args: string }>; finish: string | null }> = [];
  let usage: unknown;
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      const choice = (choices[c.index] ??= { content: null, calls: [], finish: null });
      if (typeof c.delta.content === 'string') choice.content = (choice.content ?? '') + c.delta.content;
      for (const t of c.delta.tool_calls ?? []) {
        const call = (choice.calls[t.index] ??= { id: '', name: '', args: '' });
        if (t.id) call.id = t.id;
        if (t.function?.name) call.name = t.function.name;
        call.args += t.function?.arguments ?? '';
      }
      if (c.finish_reason) choice.finish = c.finish_reason;
    }
  }
  return { choices, usage };
}

function whole(c: OpenAI.ChatCompletion) {
  return {
    choices: c.choices.map((x) => ({
      content: x.message.content,
      calls: (x.message.tool_calls ?? []).map((t) => ({ id: t.id, name: (t as OpenAI.ChatCompletionMessageFunctionToolCall).function.name, args: (t as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments })),
      finish: x.finish_reason,
    })),
    usage: c.usage,
  };
}

const harness = harnessForFile();
let h: Harness;
beforeEach(() => (h = harness()));

describe('streaming (stream: true)', () => {
  it.each([
    ['a text answer', ask('echo', 'Say hi to everyone in this room, please.')],
    ['two choices', ask('color-guesser', 'Guess what color I am thinking. It could be: blue, red, black, white, yellow.', { n: 2 })],
    ['tool calls', ask('echo?calls=2', 'find it', { tools: [tool] })],
    ['an answer cut by max_tokens', ask('echo', 'a long answer that max_tokens will cut short', { max_tokens: 3 })],
  ])('%s: the chunks assemble into exactly the completion stream: false returns, usage included', async (_name, body) => {
    const plain = await h.client.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const stream = await h.client.chat.completions.create({ ...(body as OpenAI.ChatCompletionCreateParamsNonStreaming), stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(assemble(chunks)).toEqual(whole(plain));
    expect(chunks.every((c) => c.id === plain.id && c.model === plain.model && c.object === 'chat.completion.chunk')).toBe(true);
    // Token by token: no piece of content or arguments is longer than one of the server's tokens (4 characters).
    const pieces = chunks.flatMap((c) => c.choices.flatMap((x) => [x.delta.content ?? '', ...(x.delta.tool_calls ?? []).map((t) => t.function?.arguments ?? '')])).filter(Boolean);
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.every((p) => Array.from(p).length <= 4)).toBe(true);
  });

  it('sends role first, tool calls as index/id/name then argument pieces, finish reasons, usage last, then [DONE]', async () => {
    const { status, type, events } = await sseEvents(h.server.baseURL, { ...ask('echo?calls=1', 'find it', { tools: [tool] }), stream: true, stream_options: { include_usage: true } });
    expect([status, type]).toEqual([200, 'text/event-stream; charset=utf-8']);
    expect(events[events.length - 1]).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as OpenAI.ChatCompletionChunk);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: null, refusal: null });
    const calls = chunks.flatMap((c) => c.choices.flatMap((x) => x.delta.tool_calls ?? []));
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'lookup', arguments: '' } });
    expect(calls[0].id).toMatch(/^call_/);
    expect(calls.slice(1).every((t) => t.id === undefined && t.index === 0 && typeof t.function?.arguments === 'string')).toBe(true);
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks[chunks.length - 2].choices[0].finish_reason).toBe('tool_calls');
  });

  it('without stream_options.include_usage no usage is sent; stream_options without stream is refused as OpenAI refuses it', async () => {
    const { events } = await sseEvents(h.server.baseURL, { ...ask('echo', 'hi'), stream: true });
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as Record<string, unknown>);
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
    const refused = await rawPost(`${h.server.baseURL}/chat/completions`, { ...ask('echo', 'hi'), stream_options: { include_usage: true } });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ param: 'stream_options' });
  });

  it('a hold afterTokens keeps a streamed answer after its N-th token until released; a plain answer is not held', async () => {
    h.server.hold({ model: 'echo' }, { afterTokens: 2 });
    const plain = await h.client.chat.completions.create(ask('echo', 'not streamed'));
    expect(plain.choices[0].message.content).toBe('Echo: not streamed');
    const stream = await h.client.chat.completions.create({ ...ask('echo', 'held mid-stream'), stream: true });
    const pieces: string[] = [];
    const reading = (async () => {
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    })();
    await until(() => h.server.stats().held.length === 1, 'the stream held');
    await until(() => pieces.join('') === 'Echo: he', 'the first two tokens read');
    expect(h.server.stats().total.inFlight).toBe(1);
    expect(h.server.release()).toHaveLength(1);
    await reading;
    expect(pieces.join('')).toBe('Echo: held mid-stream');
    expect(h.server.stats().total).toMatchObject({ completed: 2, inFlight: 0 });
    expect(h.server.stats().requests.map((r) => r.streamed ?? false)).toEqual([false, true]);
  });

  it('a client that leaves mid-stream is counted aborted', async () => {
    h.server.hold({}, { afterTokens: 1 });
    const controller = new AbortController();
    const stream = await h.client.chat.completions.create({ ...ask('echo', 'going away'), stream: true }, { signal: controller.signal });
    const reading = (async () => {
      for await (const _ of stream) void _;
    })();
    await until(() => h.server.stats().held.length === 1, 'the stream held');
    controller.abort();
    await reading;
    await until(() => h.server.stats().total.aborted === 1, 'the request counted aborted');
    h.server.release();
  });

  it('the /_grove/hold route takes afterTokens and refuses a bad one', async () => {
    expect((await rawPost(`${h.server.url}/_grove/hold`, { model: 'echo', afterTokens: 3 })).json).toEqual({ ok: true });
    expect((await rawPost(`${h.server.url}/_grove/hold`, { model: 'echo', afterTokens: -1 })).status).toBe(400);
    h.server.release();
  });
});

describe('profiles of servers that do not stream', () => {
  it('no-streaming refuses stream: true with a 400 naming it, and answers stream: false', async () => {
    const refused = await rawPost(`${h.server.url}/profile/no-streaming/v1/chat/completions`, { ...ask('echo', 'hi'), stream: true });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ param: 'stream', message: expect.stringMatching(/Streaming is not supported/) });
    const plain = await rawPost(`${h.server.url}/profile/no-streaming/v1/chat/completions`, ask('echo', 'hi'));
    expect(plain.json.choices[0].message.content).toBe('Echo: hi');
  });

  it('ignores-streaming answers stream: true with a whole JSON completion; llamacpp streams its one choice', async () => {
    const ignored = await sseEvents(`${h.server.url}/profile/ignores-streaming/v1`, { ...ask('echo', 'hi'), stream: true });
    expect(ignored.type).toBe('application/json');
    expect(JSON.parse(ignored.events[0]).choices[0].message.content).toBe('Echo: hi');
    const llama = await sseEvents(`${h.server.url}/profile/llamacpp/v1`, { ...ask('echo', 'hi', { n: 3 }), stream: true });
    expect(llama.type).toMatch(/^text\/event-stream/);
    const indexes = new Set(llama.events.slice(0, -1).flatMap((e) => (JSON.parse(e) as OpenAI.ChatCompletionChunk).choices.map((c) => c.index)));
    expect([...indexes]).toEqual([0]);
  });
});

describe('in-process client', () => {
  it('asResponse() streams the same completion as server-sent chunks', async () => {
    const client = inProcessOpenAI();
    const body = ask('echo', 'in process', { stream: true, stream_options: { include_usage: true } });
    const res = await (client.chat.completions.create(body as never) as unknown as { asResponse(): Promise<Response> }).asResponse();
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = text.split('\n\n').filter((e) => e && e !== 'data: [DONE]').map((e) => JSON.parse(e.slice(6)) as OpenAI.ChatCompletionChunk);
    expect(assemble(chunks).choices[0].content).toBe('Echo: in process');
  });
});
