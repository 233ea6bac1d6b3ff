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
 * list; appends), DELETE /_grove/faults, POST /_grove/hold (a fault match, and `afterTokens` to
 * hold streamed answers mid-stream: hold those requests unanswered), POST /_grove/release (answer
 * them). `stream: true` is answered with server-sent `chat.completion.chunk` events.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLarge, sendError } from './http-io';
import { bodyTooLarge, policyFailure } from './openai-errors';
import { handleRequest } from './routes';
import { serverContext } from './server-context';
import type { ModelServer, ModelServerOptions } from './types';

export { ABORTED_STATUS } from './response-faults';

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
  const ctx = serverContext(opts);
  let requestSeq = 0;

  const server = http.createServer((req, res) => {
    res.setHeader('x-request-id', `req_${++requestSeq}`);
    handleRequest(ctx, req, res).catch((e: unknown) => {
      if (e instanceof BodyTooLarge) return sendError(res, bodyTooLarge());
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
    models: [...ctx.policies.keys()],
    stats: () => ({ ...ctx.stats.snapshot(), held: ctx.gate.held() }),
    hold: (match, opts) => ctx.gate.hold(match, opts),
    release: () => ctx.gate.release(),
    reset: () => {
      ctx.stats.reset();
      ctx.faults.clear();
    },
    addFault: (f) => ctx.faults.add(f),
    clearFaults: () => ctx.faults.clear(),
    close: async () => {
      if (ctx.closing) return;
      ctx.closing = true;
      ctx.gate.drop();
      for (const t of ctx.timers) clearTimeout(t);
      ctx.timers.clear();
      const stopped = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      server.closeAllConnections();
      await stopped;
      // Destroyed responses emit 'close' a little later; wait so stats show them aborted.
      await Promise.all([...ctx.open]);
    },
  };
}
