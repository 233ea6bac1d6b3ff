/**
 * grove's scripted OpenAI-compatible model server (node:http only).
 *
 * WHY: tests, the offline demo and the benchmarks need a model that speaks the real HTTP API
 * (so the real `openai` SDK code path runs end to end), answers deterministically (so a
 * retried activity gets the identical answer), counts calls (so tests can prove that no
 * completed call was paid for twice) and fails on command (429, 5xx, malformed bodies,
 * latency, hangs).
 *
 * Routes: POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models[/id] (bearer auth
 * when `apiKeys` is set); control routes, which need the same key when `apiKeys` is set except
 * GET /_grove/health: GET /_grove/stats (`?log=N`: the last N requests, default 100, at most
 * 1000, texts clipped to 200 characters), POST /_grove/reset, POST /_grove/faults (a rule or a
 * list; appends), DELETE /_grove/faults, POST /_grove/hold (a fault match: hold those requests
 * unanswered), POST /_grove/release (answer them).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXED_CREATED, buildCompletion } from './completion';
import { buildEmbeddings, embeddingInputs } from './embeddings';
import { FaultBook, faultRuleSchema } from './fault-book';
import { HoldGate } from './hold-gate';
import { requestHash } from './hashing';
import { parseModelName } from './model-name';
import { type HttpError, badRequest, faultError, modelNotFound, policyFailure, unauthorized } from './openai-errors';
import { BUILT_IN_POLICIES } from './policies';
import { messageText } from './policies/conversation';
import { checkChatRequest, zodIssueError } from './request-checks';
import { chatRequestSchema, embeddingsRequestSchema } from './request-schema';
import { choiceSeedText, seededRng } from './rng';
import { type RequestTicket, StatsRecorder } from './stats-recorder';
import { PROFILES, splitProfile, type Profile } from './profiles';
import type { AsyncChatPolicy, ChatPolicy, FaultAction, FaultRule, ModelServer, ModelServerOptions, PolicyContext, RequestOutcome } from './types';

/** Status logged for a request whose client went away (nginx's "client closed request"). */
export const ABORTED_STATUS = 499;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const DEFAULT_MALFORMED_BODY = 'this is not JSON {';
const UNPARSABLE_JSON =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library " +
  'correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)';

class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: http.ServerResponse, e: HttpError): void {
  sendJson(res, e.status, { error: e.error }, e.headers);
}

/**
 * Starts the server and resolves once it listens.
 *
 * @example
 * const server = await startModelServer({ seed: 1 });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * await client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'hi' }] });
 * await server.close();
 */
export async function startModelServer(opts: ModelServerOptions = {}): Promise<ModelServer> {
  const seed = opts.seed ?? 0;
  const maxContextChars = opts.maxContextChars ?? 1e6;
  const strictToolMessages = opts.strictToolMessages ?? true;
  const apiKeys = opts.apiKeys ? new Set(opts.apiKeys) : undefined;
  const policies = new Map<string, ChatPolicy | AsyncChatPolicy>();
  for (const p of [...BUILT_IN_POLICIES, ...(opts.policies ?? [])]) policies.set(p.name, p);
  const faults = new FaultBook();
  const gate = new HoldGate();
  const stats = new StatsRecorder();
  const timers = new Set<NodeJS.Timeout>();
  /** Settles when the tracked response closes; close() waits for these so stats are final. */
  const open = new Set<Promise<void>>();
  let requestSeq = 0;
  let closing = false;

  /** Resolves true after `ms`, or false as soon as the client goes away or the server closes. */
  const wait = (ms: number, res: http.ServerResponse) =>
    new Promise<boolean>((resolve) => {
      if (res.destroyed || closing) return resolve(false);
      const onClose = () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.off('close', onClose);
        resolve(!res.destroyed && !closing);
      }, ms);
      timers.add(timer);
      res.once('close', onClose);
    });

  /** Wires a ticket to the response's fate: finished -> `outcome`, closed early -> aborted. */
  const track = (res: http.ServerResponse, ticket: RequestTicket) => {
    const state = { outcome: 'failed' as RequestOutcome };
    const closed = new Promise<void>((resolve) => {
      res.once('close', () => {
        if (!res.writableFinished) ticket.finish(ABORTED_STATUS, 'aborted');
        open.delete(closed);
        resolve();
      });
    });
    open.add(closed);
    res.once('finish', () => ticket.finish(res.statusCode, state.outcome));
    return state;
  };

  /** Applies a fault: 'handled' when the fault answered (or will never answer) the request. */
  const applyFault = async (
    action: FaultAction | undefined,
    res: http.ServerResponse,
  ): Promise<'continue' | 'handled'> => {
    if (!action) return 'continue';
    switch (action.kind) {
      case 'status':
        sendError(res, faultError(action.status, action));
        return 'handled';
      case 'malformed': {
        const body = action.body ?? DEFAULT_MALFORMED_BODY;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return 'handled';
      }
      case 'hang':
        return 'handled';
      case 'latency':
        return (await wait(action.ms, res)) ? 'continue' : 'handled';
    }
  };

  const authError = (req: http.IncomingMessage): HttpError | undefined => {
    if (!apiKeys) return undefined;
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const key = m?.[1].trim();
    return key && apiKeys.has(key) ? undefined : unauthorized(key);
  };

  const callKeyOf = (req: http.IncomingMessage): string | undefined => {
    const v = req.headers['x-grove-call-key'];
    return Array.isArray(v) ? v[0] : v;
  };

  const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  };

  const modelKey = (body: unknown): string => {
    const model = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
    if (typeof model !== 'string' || !model) return '(none)';
    const { policy } = parseModelName(model);
    return policies.has(policy) ? policy : model;
  };

  async function handleChat(req: http.IncomingMessage, res: http.ServerResponse, text: string, profile: Profile): Promise<void> {
    const parsed = parseJson(text);
    const body = parsed.ok ? parsed.value : undefined;
    const key = modelKey(body);
    const raw = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const n = typeof raw.n === 'number' ? raw.n : 1;
    const messages = Array.isArray(raw.messages) ? raw.messages : [];
    const lastUser = [...messages].reverse().find((m) => m && (m as { role?: unknown }).role === 'user') as
      | { role: 'user'; content: unknown }
      | undefined;
    // Read from the raw body so that invalid requests are logged with their text too.
    const lastUserTextRaw = lastUser ? messageText(lastUser as never) : '';
    const callKey = callKeyOf(req);
    const ticket = stats.begin(key, { callKey, lastUserText: lastUserTextRaw, n, messages: messages.length });
    const state = track(res, ticket);

    const auth = authError(req);
    if (auth) return sendError(res, auth);
    if (!parsed.ok) return sendError(res, badRequest(UNPARSABLE_JSON));
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return sendError(res, badRequest('The request body must be a JSON object.'));
    }
    const result = chatRequestSchema.safeParse(body);
    if (!result.success) return sendError(res, zodIssueError(result.error.issues, body));
    const chat = result.data;
    const { policy: policyName, options } = parseModelName(chat.model);
    const policy = policies.get(policyName);
    if (!policy) return sendError(res, modelNotFound(chat.model));

    const texts = chat.messages.map(messageText);
    const target = { policy: policyName, model: chat.model, texts, callIndex: ticket.callIndex, callKey };
    if (!(await gate.pass(target, res))) return;
    const action = faults.take(target);
    if ((await applyFault(action, res)) === 'handled') return;

    const problem = profile.refusal(chat) ?? checkChatRequest(chat, { maxContextChars, strictToolMessages });
    if (problem) return sendError(res, problem);

    const hash = requestHash(raw);
    const count = profile.choices(chat.n ?? 1);
    const ctx: PolicyContext = {
      n: count,
      options,
      rng: (i) => seededRng(choiceSeedText(seed, policy.name, hash, i)),
    };
    let replies;
    try {
      replies = await policy.respond(chat, ctx);
    } catch (e) {
      return sendError(res, policyFailure(`Policy '${policy.name}' failed: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (!Array.isArray(replies) || replies.length !== count) {
      return sendError(
        res,
        policyFailure(`Policy '${policy.name}' returned ${Array.isArray(replies) ? replies.length : 'no'} replies for n=${count}.`),
      );
    }
    state.outcome = 'completed';
    sendJson(res, 200, buildCompletion({ ...chat, n: count }, hash, replies));
  }

  async function handleEmbeddings(req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
    const parsed = parseJson(text);
    const body = parsed.ok ? parsed.value : undefined;
    const raw = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const key = typeof raw.model === 'string' && raw.model ? parseModelName(raw.model).policy : '(none)';
    const first = typeof raw.input === 'string' ? raw.input : Array.isArray(raw.input) && typeof raw.input[0] === 'string' ? raw.input[0] : '';
    const callKey = callKeyOf(req);
    const ticket = stats.begin(key, { callKey, lastUserText: first, n: 1 });
    const state = track(res, ticket);

    const auth = authError(req);
    if (auth) return sendError(res, auth);
    if (!parsed.ok) return sendError(res, badRequest(UNPARSABLE_JSON));
    const result = embeddingsRequestSchema.safeParse(body);
    if (!result.success) return sendError(res, zodIssueError(result.error.issues, body));
    const emb = result.data;
    const target = { policy: key, model: emb.model, texts: embeddingInputs(emb.input), callIndex: ticket.callIndex, callKey };
    if (!(await gate.pass(target, res))) return;
    const action = faults.take(target);
    if ((await applyFault(action, res)) === 'handled') return;
    state.outcome = 'completed';
    sendJson(res, 200, buildEmbeddings(emb));
  }

  const modelList = () =>
    [...policies.values()].map((p) => ({
      id: p.name,
      object: 'model' as const,
      created: FIXED_CREATED,
      owned_by: 'grove',
      ...(p.description ? { description: p.description } : {}),
    }));

  /** The request log over HTTP is short (`?log=N`, at most HTTP_LOG_MAX) and its texts are clipped: it holds prompts. */
  const HTTP_LOG_DEFAULT = 100;
  const HTTP_LOG_MAX = 1000;
  const HTTP_TEXT_MAX = 200;

  async function handleControl(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/_grove/health') return sendJson(res, 200, { ok: true, models: [...policies.keys()] });
    // Everything else reads prompts or changes behaviour: it takes the API key when the server has one.
    const auth = authError(req);
    if (auth) return sendError(res, auth);
    if (method === 'GET' && path === '/_grove/stats') {
      const snapshot = { ...stats.snapshot(), held: gate.held() };
      const asked = Number(new URL(req.url ?? '/', 'http://localhost').searchParams.get('log') ?? HTTP_LOG_DEFAULT);
      const keep = Number.isFinite(asked) ? Math.max(0, Math.min(HTTP_LOG_MAX, Math.floor(asked))) : HTTP_LOG_DEFAULT;
      const requests = (keep === 0 ? [] : snapshot.requests.slice(-keep)).map((r) => ({ ...r, lastUserText: r.lastUserText.slice(0, HTTP_TEXT_MAX) }));
      return sendJson(res, 200, { ...snapshot, requests });
    }
    if (method === 'POST' && path === '/_grove/reset') {
      await readBody(req);
      stats.reset();
      faults.clear();
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_grove/hold') {
      const parsed = parseJson((await readBody(req)) || '{}');
      const match = parsed.ok ? faultRuleSchema.shape.match.safeParse(parsed.value) : undefined;
      if (!match?.success) return sendError(res, badRequest('The body must be a fault match: { model?, contains?, callIndex?, callKeyPrefix? }.'));
      gate.hold(match.data ?? {});
      return sendJson(res, 200, { ok: true });
    }
    if (method === 'POST' && path === '/_grove/release') {
      await readBody(req);
      return sendJson(res, 200, { ok: true, released: gate.release() });
    }
    if (method === 'DELETE' && path === '/_grove/faults') {
      faults.clear();
      return sendJson(res, 200, { ok: true, faults: 0 });
    }
    if (method === 'POST' && path === '/_grove/faults') {
      const parsed = parseJson(await readBody(req));
      if (!parsed.ok) return sendError(res, badRequest(UNPARSABLE_JSON));
      const list = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      for (let i = 0; i < list.length; i++) {
        const r = faultRuleSchema.safeParse(list[i]);
        if (!r.success) {
          const e = zodIssueError(r.error.issues, list[i]);
          return sendError(res, { ...e, error: { ...e.error, message: `Fault rule ${i}: ${e.error.message}` } });
        }
      }
      for (const rule of list) faults.add(rule as FaultRule);
      return sendJson(res, 200, { ok: true, faults: faults.size });
    }
    return sendError(res, { status: 404, error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader('x-request-id', `req_${++requestSeq}`);
    const method = req.method ?? 'GET';
    const fullPath = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
    if (fullPath.startsWith('/_grove/')) return handleControl(req, res, fullPath);
    const routed = splitProfile(fullPath);
    if ('unknown' in routed) return sendError(res, { status: 404, error: { message: `Unknown provider profile "${routed.unknown}" (known: ${PROFILES.join(', ')})`, type: 'invalid_request_error', param: null, code: null } });
    const { path, profile } = routed;
    if (method === 'POST' && path === '/v1/chat/completions') return handleChat(req, res, await readBody(req), profile);
    if (method === 'POST' && path === '/v1/embeddings') return handleEmbeddings(req, res, await readBody(req));
    if (method === 'GET' && path.startsWith('/v1/models')) {
      const auth = authError(req);
      if (auth) return sendError(res, auth);
      if (path === '/v1/models') return sendJson(res, 200, { object: 'list', data: modelList() });
      const id = decodeURIComponent(path.slice('/v1/models/'.length));
      const found = modelList().find((m) => m.id === parseModelName(id).policy);
      return found ? sendJson(res, 200, { ...found, id }) : sendError(res, modelNotFound(id));
    }
    return sendError(res, { status: 404, error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (e instanceof BodyTooLarge) return sendError(res, { status: 413, error: { message: 'Request body too large.', type: 'invalid_request_error', param: null, code: null } });
      if (res.headersSent || res.destroyed || req.destroyed) return void res.destroy();
      sendError(res, policyFailure(`grove model server error: ${e instanceof Error ? e.message : String(e)}`));
    });
  });
  server.keepAliveTimeout = 5_000;

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    models: [...policies.keys()],
    stats: () => ({ ...stats.snapshot(), held: gate.held() }),
    hold: (match) => gate.hold(match),
    release: () => gate.release(),
    reset: () => {
      stats.reset();
      faults.clear();
    },
    addFault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    close: async () => {
      if (closing) return;
      closing = true;
      gate.drop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const stopped = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      server.closeAllConnections();
      await stopped;
      // Destroyed responses emit 'close' a little later; wait so stats show them aborted.
      await Promise.all([...open]);
    },
  };
}
