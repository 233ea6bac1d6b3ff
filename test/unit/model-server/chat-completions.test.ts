import OpenAI from 'openai';
import { type Harness, rawPost, startHarness } from './helpers';
import { FIXED_CREATED } from '../../../model-server';

const COLOR_PROMPT = "Guess what color I'm thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only";

describe('POST /v1/chat/completions through the openai SDK', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('answers n=3 with three distinct choices, an OpenAI-shaped body and usage', async () => {
    const r = await h.client.chat.completions.create({
      model: 'assistant',
      n: 3,
      messages: [{ role: 'user', content: 'How do I bake bread?' }],
    });
    expect(r.object).toBe('chat.completion');
    expect(r.created).toBe(FIXED_CREATED);
    expect(r.model).toBe('assistant');
    expect(r.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(r.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    for (const c of r.choices) {
      expect(c.message.role).toBe('assistant');
      expect(c.message.refusal).toBeNull();
      expect(c.finish_reason).toBe('stop');
      expect(c.message.content).toContain('How do I bake bread?');
    }
    expect(new Set(r.choices.map((c) => c.message.content)).size).toBe(3);
    const promptChars = 'How do I bake bread?'.length;
    const completionTokens = r.choices.reduce((s, c) => s + Math.ceil(c.message.content!.length / 4), 0);
    expect(r.usage).toEqual({
      prompt_tokens: Math.ceil(promptChars / 4),
      completion_tokens: completionTokens,
      total_tokens: Math.ceil(promptChars / 4) + completionTokens,
    });
  });

  it('says hi to "Say hi!"', async () => {
    const r = await h.client.chat.completions.create({ model: 'assistant', messages: [{ role: 'user', content: 'Say hi!' }] });
    expect(r.choices[0].message.content).toMatch(/^Hi! /);
  });

  it('gives the same answers to the same request (and choice i does not depend on n)', async () => {
    const req = {
      model: 'color-guesser',
      n: 4,
      temperature: 0.7,
      messages: [{ role: 'user' as const, content: COLOR_PROMPT }],
    };
    const a = await h.client.chat.completions.create(req);
    const b = await h.client.chat.completions.create({ ...req, max_tokens: 50 });
    expect(b).toEqual(a);
    const one = await h.client.chat.completions.create({ ...req, n: 1 });
    expect(one.choices[0].message).toEqual(a.choices[0].message);
  });

  it('answers differently when temperature is nudged, as grove does per sample', async () => {
    const base = { model: 'color-guesser', n: 3, messages: [{ role: 'user' as const, content: COLOR_PROMPT }] };
    const answers = new Set<string>();
    for (let k = 0; k < 5; k++) {
      const r = await h.client.chat.completions.create({ ...base, temperature: 0.7 + k * 1e-3 });
      answers.add(JSON.stringify(r.choices.map((c) => c.message.content)));
    }
    expect(answers.size).toBeGreaterThan(1);
  });

  it('mixes the server seed into the answers', async () => {
    const other = await startHarness({ seed: 42 });
    try {
      const req = { model: 'color-guesser', n: 8, messages: [{ role: 'user' as const, content: COLOR_PROMPT }] };
      const a = await h.client.chat.completions.create(req);
      const b = await other.client.chat.completions.create(req);
      expect(b.choices.map((c) => c.message.content)).not.toEqual(a.choices.map((c) => c.message.content));
    } finally {
      await other.server.close();
    }
  });

  it('round-trips tools: tool_calls with deterministic ids, then the tool result', async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'multiply',
          description: 'Multiplies two numbers.',
          parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        },
      },
    ];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).' },
    ];
    const r1 = await h.client.chat.completions.create({ model: 'multiplier', messages, tools });
    const c1 = r1.choices[0];
    expect(c1.finish_reason).toBe('tool_calls');
    expect(c1.message.content).toBeNull();
    const call = c1.message.tool_calls![0];
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(call.type).toBe('function');
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('multiply');
    expect(JSON.parse(call.function.arguments)).toEqual({ a: 9418.343, b: 8.11 });
    const again = await h.client.chat.completions.create({ model: 'multiplier', messages, tools });
    expect(again.choices[0].message.tool_calls![0].id).toBe(call.id);

    messages.push(c1.message, { role: 'tool', tool_call_id: call.id, content: String(9418.343 * 8.11) });
    const r2 = await h.client.chat.completions.create({ model: 'multiplier', messages, tools });
    const call2 = r2.choices[0].message.tool_calls![0];
    if (call2.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call2.function.arguments)).toEqual({ a: 2, b: 9418.343 * 8.11 });
  });

  it('cuts a choice at max_tokens with finish_reason "length"', async () => {
    const r = await h.client.chat.completions.create({
      model: 'echo',
      max_completion_tokens: 2,
      messages: [{ role: 'user', content: 'a fairly long sentence to echo back' }],
    });
    expect(r.choices[0].message.content).toBe('Echo: a '); // 2 tokens = 8 characters
    expect(r.choices[0].finish_reason).toBe('length');
    expect(r.usage!.completion_tokens).toBe(2);
  });

  it('reads text content parts', async () => {
    const r = await h.client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }] }],
    });
    expect(r.choices[0].message.content).toBe('Echo: part one\npart two');
  });

  it('lists the policies as models', async () => {
    const page = await h.client.models.list();
    const ids = page.data.map((m) => m.id);
    for (const name of ['echo', 'assistant', 'color-guesser', 'number-guesser', 'food-extractor', 'classifier', 'multiplier']) {
      expect(ids).toContain(name);
    }
    const one = await h.client.models.retrieve('multiplier');
    expect(one.id).toBe('multiplier');
    expect(one.owned_by).toBe('grove');
  });

  it('passes model-name options to the policy', async () => {
    const q = { messages: [{ role: 'user' as const, content: 'Is this fine? Answer with exactly one of: yes, no' }] };
    const plain = await h.client.chat.completions.create({ model: 'classifier', ...q });
    const forced = await h.client.chat.completions.create({ model: 'classifier?answer=no', ...q });
    expect(plain.choices[0].message.content).toBe('yes');
    expect(forced.choices[0].message.content).toBe('no');
    expect(forced.model).toBe('classifier?answer=no');
  });

  it('lets callers override a built-in policy and add new ones', async () => {
    const custom = await startHarness({
      policies: [
        { name: 'echo', respond: (_req, ctx) => Array.from({ length: ctx.n }, () => ({ content: 'overridden' })) },
        { name: 'fixed', respond: (_req, ctx) => Array.from({ length: ctx.n }, (_, i) => ({ content: `choice ${i}` })) },
      ],
    });
    try {
      const messages = [{ role: 'user' as const, content: 'x' }];
      const e = await custom.client.chat.completions.create({ model: 'echo', messages });
      const f = await custom.client.chat.completions.create({ model: 'fixed', n: 2, messages });
      expect(e.choices[0].message.content).toBe('overridden');
      expect(f.choices.map((c) => c.message.content)).toEqual(['choice 0', 'choice 1']);
    } finally {
      await custom.server.close();
    }
  });

  it('answers 500 when a policy breaks its contract', async () => {
    const custom = await startHarness({
      policies: [{ name: 'broken', respond: () => [] }],
    });
    try {
      await expect(
        custom.client.chat.completions.create({ model: 'broken', messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toMatchObject({ status: 500, type: 'server_error' });
    } finally {
      await custom.server.close();
    }
  });
});

describe('chat completion errors', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ apiKeys: ['good-key-123456'], maxContextChars: 100 });
  });
  afterAll(async () => {
    await h.server.close();
  });
  const good = () => new OpenAI({ baseURL: h.server.baseURL, apiKey: 'good-key-123456', maxRetries: 0 });

  it('401 invalid_api_key for a wrong key, with the key masked', async () => {
    const bad = new OpenAI({ baseURL: h.server.baseURL, apiKey: 'sk-wrong-key-9999', maxRetries: 0 });
    const err = await bad.chat.completions
      .create({ model: 'echo', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    expect((err as Error).message).toContain('Incorrect API key provided: sk-**********9999');
    await expect(bad.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('accepts a listed key', async () => {
    const r = await good().chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }] });
    expect(r.choices[0].message.content).toBe('Echo: x');
  });

  it('404 model_not_found with OpenAI wording', async () => {
    const err = await good()
      .chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'model_not_found' });
    expect((err as Error).message).toContain('The model `gpt-nope` does not exist or you do not have access to it.');
  });

  it('400 with the OpenAI envelope for malformed requests', async () => {
    const url = `${h.server.baseURL}/chat/completions`;
    const auth = { authorization: 'Bearer good-key-123456' };
    const missing = await rawPost(url, { model: 'echo' }, auth);
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      error: {
        message: "Missing required parameter: 'messages'.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'missing_required_parameter',
      },
    });
    const badType = await rawPost(url, { model: 'echo', messages: [{ role: 'user', content: 5 }] }, auth);
    expect(badType.json.error).toMatchObject({ param: 'messages[0].content', code: 'invalid_type' });
    const badN = await rawPost(url, { model: 'echo', n: 0, messages: [{ role: 'user', content: 'x' }] }, auth);
    expect(badN.json.error).toMatchObject({ param: 'n', code: 'invalid_value', type: 'invalid_request_error' });
    const notJson = await rawPost(url, '{"model": ', auth);
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.message).toContain('could not parse the JSON body');

    const viaSdk = await good()
      .chat.completions.create({ model: 'echo', messages: [{ role: 'robot' as 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(viaSdk).toBeInstanceOf(OpenAI.BadRequestError);
    expect(viaSdk).toMatchObject({ status: 400, param: 'messages[0].role' });
  });

  it('400 for tool_choice without tools and for tool messages that answer no call', async () => {
    const c = good();
    await expect(
      c.chat.completions.create({ model: 'echo', tool_choice: 'auto', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 400, param: 'tool_choice' });
    await expect(
      c.chat.completions.create({
        model: 'echo',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_1', content: '1' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'messages.[1].role' });
  });

  it('400 when an assistant tool call is left unanswered (e.g. only the first parallel call ran)', async () => {
    const err = await good()
      .chat.completions.create({
        model: 'echo',
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'multiply', arguments: '{}' } },
              { id: 'call_b', type: 'function', function: { name: 'multiply', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_a', content: '1' },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, param: 'messages.[1].role' });
    expect((err as Error).message).toContain('call_b');
  });

  it('accepts stop as one string or up to four, as OpenAI does; 400 for five', async () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect((await good().chat.completions.create({ model: 'echo', messages, stop: '\n```\n' })).choices).toHaveLength(1);
    expect((await good().chat.completions.create({ model: 'echo', messages, stop: ['a', 'b', 'c', 'd'] })).choices).toHaveLength(1);
    const err = await good().chat.completions.create({ model: 'echo', messages, stop: ['a', 'b', 'c', 'd', 'e'] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, param: 'stop' });
  });

  it('400 context_length_exceeded above maxContextChars', async () => {
    const err = await good()
      .chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x'.repeat(101) }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'messages' });
    const ok = await good().chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x'.repeat(100) }] });
    expect(ok.choices).toHaveLength(1);
  });

  it('404 Invalid URL for unknown routes', async () => {
    const r = await rawPost(`${h.server.url}/v1/completions`, { model: 'echo' });
    expect(r.status).toBe(404);
    expect(r.json.error.message).toBe('Invalid URL (POST /v1/completions)');
  });
});
