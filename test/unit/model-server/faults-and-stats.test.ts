import OpenAI from 'openai';
import type { ServerStats } from '../../../model-server';
import { type Harness, rawPost, startHarness, until } from './helpers';

const ask = (model = 'echo', content = 'hello') => ({ model, messages: [{ role: 'user' as const, content }] });

describe('fault injection', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });
  beforeEach(() => h.server.reset());

  it('429 with Retry-After visible on the SDK error, once by default', async () => {
    h.server.addFault({ action: { kind: 'status', status: 429, retryAfterSeconds: 3 } });
    const err = await h.client.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.code).toBe('rate_limit_exceeded');
    expect(e.headers?.get('retry-after')).toBe('3');
    const ok = await h.client.chat.completions.create(ask());
    expect(ok.choices[0].message.content).toBe('Echo: hello');
    expect(h.server.stats().total).toMatchObject({ received: 2, completed: 1, failed: 1 });
  });

  it('the SDK retries a 429 honouring Retry-After and then succeeds', async () => {
    h.server.addFault({ action: { kind: 'status', status: 429, retryAfterSeconds: 0 }, times: 2 });
    const retrying = new OpenAI({ baseURL: h.server.baseURL, apiKey: 'test', maxRetries: 2 });
    const r = await retrying.chat.completions.create(ask());
    expect(r.choices[0].message.content).toBe('Echo: hello');
    expect(h.server.stats().total).toMatchObject({ received: 3, completed: 1, failed: 2 });
  });

  it('every: n fails only every n-th matching request (a steady fault rate)', async () => {
    h.server.addFault({ match: { model: 'echo', every: 3 }, action: { kind: 'status', status: 503 }, times: 0 });
    const outcomes = [];
    for (let i = 0; i < 7; i++) outcomes.push(await h.client.chat.completions.create(ask()).then(() => 'ok', () => 'failed'));
    expect(outcomes).toEqual(['ok', 'ok', 'failed', 'ok', 'ok', 'failed', 'ok']);
  });

  it('500 with the server_error envelope', async () => {
    h.server.addFault({ action: { kind: 'status', status: 503, message: 'overloaded' } });
    const err = await h.client.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err).toMatchObject({ status: 503, type: 'server_error', message: '503 overloaded' });
  });

  it('malformed: a 200 whose body is not a completion makes the SDK throw', async () => {
    h.server.addFault({ action: { kind: 'malformed' } });
    await expect(h.client.chat.completions.create(ask())).rejects.toThrow();
    expect(h.server.stats().total).toMatchObject({ received: 1, completed: 0, failed: 1 });
    expect(h.server.stats().requests[0]).toMatchObject({ status: 200, outcome: 'failed' });
  });

  it('latency: the request stays in flight, then is answered normally', async () => {
    h.server.addFault({ action: { kind: 'latency', ms: 150 } });
    const pending = h.client.chat.completions.create(ask());
    await until(() => h.server.stats().total.inFlight === 1, 'request in flight');
    const r = await pending;
    expect(r.choices[0].message.content).toBe('Echo: hello');
    expect(h.server.stats().total).toMatchObject({ received: 1, completed: 1, inFlight: 0 });
  });

  it('latency longer than the client timeout counts as aborted', async () => {
    h.server.addFault({ action: { kind: 'latency', ms: 60_000 } });
    // A timeout surfaces as APIConnectionError (APIConnectionTimeoutError is its subclass).
    await expect(h.client.chat.completions.create(ask(), { timeout: 100 })).rejects.toBeInstanceOf(
      OpenAI.APIConnectionError,
    );
    await until(() => h.server.stats().total.aborted === 1, 'abort recorded');
    expect(h.server.stats().total).toMatchObject({ received: 1, completed: 0, aborted: 1, inFlight: 0 });
  });

  it('hang: never answers; a client abort is counted as aborted', async () => {
    h.server.addFault({ action: { kind: 'hang' } });
    const ac = new AbortController();
    const pending = h.client.chat.completions.create(ask(), { signal: ac.signal });
    await until(() => h.server.stats().total.inFlight === 1, 'request in flight');
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    await until(() => h.server.stats().total.aborted === 1, 'abort recorded');
    expect(h.server.stats().byModel.echo).toMatchObject({ received: 1, aborted: 1, inFlight: 0 });
    expect(h.server.stats().requests[0]).toMatchObject({ outcome: 'aborted', status: 499 });
  });

  it('matches by model, contains, callIndex and call-key prefix, in order, with times', async () => {
    h.server.addFault({ match: { model: 'assistant' }, action: { kind: 'status', status: 500 }, times: 0 });
    h.server.addFault({ match: { contains: 'boom' }, action: { kind: 'status', status: 502 } });
    h.server.addFault({ match: { model: 'echo', callIndex: 2 }, action: { kind: 'status', status: 504 } });
    h.server.addFault({ match: { callKeyPrefix: 'wf-1/' }, action: { kind: 'status', status: 429 }, times: 2 });

    const status = (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status);
    expect(await status(h.client.chat.completions.create(ask('assistant')))).toBe(500);
    expect(await status(h.client.chat.completions.create(ask('assistant?x=1')))).toBe(500);
    expect(await status(h.client.chat.completions.create(ask('echo', 'boom')))).toBe(502); // echo call 0
    expect(await status(h.client.chat.completions.create(ask('echo', 'boom')))).toBe(200); // spent; call 1
    expect(await status(h.client.chat.completions.create(ask('echo')))).toBe(504); // call 2
    const keyed = { headers: { 'x-grove-call-key': 'wf-1/run/act-1' } };
    expect(await status(h.client.chat.completions.create(ask('echo'), keyed))).toBe(429);
    expect(await status(h.client.chat.completions.create(ask('echo'), keyed))).toBe(429);
    expect(await status(h.client.chat.completions.create(ask('echo'), keyed))).toBe(200);
    h.server.clearFaults();
    expect(await status(h.client.chat.completions.create(ask('assistant')))).toBe(200);
  });

  it('close() ends hanging requests instead of waiting for them', async () => {
    const other = await startHarness();
    other.server.addFault({ action: { kind: 'hang' }, times: 0 });
    const pending = other.client.chat.completions.create(ask()).then(
      () => 'answered',
      () => 'failed',
    );
    await until(() => other.server.stats().total.inFlight === 1, 'request in flight');
    await other.server.close();
    expect(await pending).toBe('failed');
    expect(other.server.stats().total).toMatchObject({ aborted: 1, inFlight: 0 });
  });

  it('hold: matching requests wait unanswered (before any fault rule) until release; a client that leaves is aborted', async () => {
    h.server.addFault({ action: { kind: 'latency', ms: 1 }, times: 0 }); // a rule that matches everything does not jump the gate
    h.server.hold({ callKeyPrefix: 'wf-held/' });
    const keyed = (key: string) => ({ headers: { 'x-grove-call-key': key } });
    const held = h.client.chat.completions.create(ask('echo', 'held'), keyed('wf-held/g0/a/0'));
    const ac = new AbortController();
    const leaving = h.client.chat.completions.create(ask('echo', 'leaving'), { ...keyed('wf-held/g0/b/0'), signal: ac.signal });
    expect((await h.client.chat.completions.create(ask('echo', 'free'), keyed('wf-free/g0/c/0'))).choices[0].message.content).toBe('Echo: free');
    await until(() => h.server.stats().held.length === 2, 'two requests held');
    expect(h.server.stats().total).toMatchObject({ completed: 1, inFlight: 2 });
    ac.abort();
    await expect(leaving).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    await until(() => h.server.stats().held.length === 1, 'the abort leaves the gate');
    expect(h.server.stats().held).toEqual(['wf-held/g0/a/0']);
    expect(h.server.release()).toEqual(['wf-held/g0/a/0']);
    expect((await held).choices[0].message.content).toBe('Echo: held');
    expect(h.server.stats().total).toMatchObject({ completed: 2, aborted: 1, inFlight: 0 });
    expect((await h.client.chat.completions.create(ask('echo', 'after'), keyed('wf-held/g0/d/0'))).choices[0].message.content).toBe('Echo: after'); // the gate is open
  });

  it('rejects an invalid fault rule', () => {
    expect(() => h.server.addFault({ action: { kind: 'explode' } } as never)).toThrow(TypeError);
  });

  it('applies faults to embeddings too', async () => {
    h.server.addFault({ match: { model: 'text-embedding-3-small' }, action: { kind: 'status', status: 500 } });
    await expect(h.client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({
      status: 500,
    });
  });
});

describe('control routes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ apiKeys: ['k'] });
  });
  afterAll(async () => {
    await h.server.close();
  });

  const auth = { authorization: 'Bearer k' };

  it('health, faults (append, list body, delete), stats and reset over HTTP, with the API key', async () => {
    const health = (await (await fetch(`${h.server.url}/_grove/health`)).json()) as { ok: boolean; models: string[] };
    expect(health.ok).toBe(true);
    expect(health.models).toContain('multiplier');
    // Without the key: no prompts, no faults, no reset.
    for (const [method, path] of [['GET', 'stats'], ['POST', 'faults'], ['DELETE', 'faults'], ['POST', 'reset'], ['POST', 'hold'], ['POST', 'release']]) {
      const denied = await fetch(`${h.server.url}/_grove/${path}`, { method, body: method === 'POST' ? '{}' : undefined });
      expect([path, denied.status]).toEqual([path, 401]);
    }

    const added = await rawPost(`${h.server.url}/_grove/faults`, [
      { action: { kind: 'status', status: 500 } },
      { match: { model: 'echo' }, action: { kind: 'hang' }, times: 0 },
    ], auth);
    expect(added.json).toEqual({ ok: true, faults: 2 });
    const bad = await rawPost(`${h.server.url}/_grove/faults`, { action: { kind: 'status', status: 200 } }, auth);
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe('action.status');

    const client = new OpenAI({ baseURL: h.server.baseURL, apiKey: 'k', maxRetries: 0 });
    expect((await rawPost(`${h.server.url}/_grove/hold`, { model: 'assistant', bogus: 1 }, auth)).status).toBe(400);
    expect((await rawPost(`${h.server.url}/_grove/hold`, { model: 'assistant' }, auth)).json).toEqual({ ok: true });
    const held = client.chat.completions.create(ask('assistant'), { headers: { 'x-grove-call-key': 'wf/g0/x/0' } });
    await until(() => h.server.stats().held.length === 1, 'held');
    expect((await rawPost(`${h.server.url}/_grove/release`, {}, auth)).json).toEqual({ ok: true, released: ['wf/g0/x/0'] });
    await expect(held).rejects.toMatchObject({ status: 500 }); // released into the fault rules
    const del = await fetch(`${h.server.url}/_grove/faults`, { method: 'DELETE', headers: auth });
    expect(await del.json()).toEqual({ ok: true, faults: 0 });
    await client.chat.completions.create(ask('echo'));

    const stats = (await (await fetch(`${h.server.url}/_grove/stats`, { headers: auth })).json()) as ServerStats;
    expect(stats.total).toEqual({ received: 2, completed: 1, failed: 1, aborted: 0, inFlight: 0, peakInFlight: 1 });
    expect(stats.byModel.assistant.failed).toBe(1);
    expect(stats.requests).toHaveLength(2);
    const short = (await (await fetch(`${h.server.url}/_grove/stats?log=1`, { headers: auth })).json()) as ServerStats;
    expect(short.requests).toHaveLength(1);

    const reset = await rawPost(`${h.server.url}/_grove/reset`, {}, auth);
    expect(reset.json).toEqual({ ok: true });
    expect(h.server.stats().total.received).toBe(0);
  });
});

describe('stats and call keys', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });
  beforeEach(() => h.server.reset());

  const withKey = (key: string) => ({ headers: { 'x-grove-call-key': key } });

  it('counts a call key repeated after it completed (a paid call paid twice)', async () => {
    await h.client.chat.completions.create(ask('echo', 'a'), withKey('wf/run/1'));
    await h.client.chat.completions.create(ask('echo', 'b'), withKey('wf/run/2'));
    expect(h.server.stats().callKeys).toEqual({ distinct: 2, repeatedAfterCompletion: 0, repeated: [] });
    await h.client.chat.completions.create(ask('echo', 'a'), withKey('wf/run/1'));
    await h.client.chat.completions.create(ask('echo', 'a'), withKey('wf/run/1'));
    expect(h.server.stats().callKeys).toEqual({ distinct: 2, repeatedAfterCompletion: 2, repeated: ['wf/run/1'] });
  });

  it('does not count retries of a call that failed', async () => {
    h.server.addFault({ action: { kind: 'status', status: 500 } });
    await h.client.chat.completions.create(ask(), withKey('wf/run/3')).catch(() => undefined);
    await h.client.chat.completions.create(ask(), withKey('wf/run/3'));
    expect(h.server.stats().callKeys).toEqual({ distinct: 1, repeatedAfterCompletion: 0, repeated: [] });
  });

  it('keeps a request log with model, key, status, outcome, last user text, n and the number of messages', async () => {
    await h.client.chat.completions.create({ ...ask('assistant?x=1', 'first'), n: 2 }, withKey('k1'));
    await h.client.chat.completions.create(ask('nope', 'second')).catch(() => undefined);
    const s = h.server.stats();
    expect(s.requests).toEqual([
      { model: 'assistant', callKey: 'k1', status: 200, outcome: 'completed', lastUserText: 'first', n: 2, messages: 1 },
      { model: 'nope', status: 404, outcome: 'failed', lastUserText: 'second', n: 1, messages: 1 },
    ]);
    expect(Object.keys(s.byModel).sort()).toEqual(['assistant', 'nope']);
  });

  it('returns copies: mutating a snapshot does not change the server', () => {
    const s = h.server.stats();
    s.total.received = 99;
    expect(h.server.stats().total.received).toBe(0);
  });
});
