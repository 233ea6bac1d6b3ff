import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageScript, SERVED_CSP, servedPage } from './page-assets';
import { parseRunFilter, ViewerInputError } from './run-filter';
import { RunNotFoundError, type RunSource } from './run-source';
import type { RunEvent } from '../../core/runs/run-events';

export interface UiServerOptions {
  source: RunSource;
  /** Default 127.0.0.1: only this machine can read the runs. */
  host?: string;
  /** Default 8234 (`GROVE_VIEWER_PORT`); 0 picks a free port. */
  port?: number;
  /** How often a page asks about a live run (ms); default 1000. */
  pollMs?: number;
  /**
   * A run's events as they happen (`GroveClient.events`), served to pages as server-sent events
   * at `/api/runs/<workflowId>/stream`: a running call's answer grows on the page. Without it
   * that path answers 404 and pages show answers once their nodes exist.
   */
  events?: (workflowId: string, signal: AbortSignal) => AsyncIterable<RunEvent>;
}

/** A comment line sent this often on an idle event stream, so proxies and browsers keep it open. */
const KEEPALIVE_MS = 15_000;

export interface UiServer {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_VIEWER_PORT = 8234;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The viewer's HTTP server (node:http, no framework): the page, its script, and a read-only
 * JSON API over a `RunSource`. Only GET and HEAD are served; bound to loopback, it also
 * refuses requests whose Host is not a loopback name, so a web page elsewhere cannot reach it
 * through DNS rebinding. Nothing from the environment is ever sent.
 *
 * API: `GET /api/runs?status=&kind=&limit=`, `GET /api/runs/<workflowId>[?rev=<rev>]` (just
 * `{ rev, unchanged: true }` when the view has not changed), `GET /api/runs/<workflowId>/nodes/<id>`,
 * and `GET /api/runs/<workflowId>/stream`: the run's events (`RunEvent`) as server-sent events
 * (`event: token`, `data: {...}`), until the run ends or the page goes.
 *
 * @example
 * const server = await startUiServer({ source, port: 0 });
 * console.log(server.url); // http://127.0.0.1:41234/
 */
export async function startUiServer(opts: UiServerOptions): Promise<UiServer> {
  const host = opts.host ?? '127.0.0.1';
  const page = servedPage({ pollMs: opts.pollMs ?? 1000 });
  const script = pageScript();
  const loopback = LOOPBACK.has(host);
  let port = 0;
  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { error: err.message }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'the viewer only reads (GET)' }, { allow: 'GET, HEAD' });
    if (loopback && !isLoopbackHost(req.headers.host, port)) {
      return send(res, 403, { error: `Host ${JSON.stringify(req.headers.host ?? '')} is not this machine: open http://127.0.0.1:${port}/ (or serve other names with --host)` });
    }
    const url = new URL(req.url ?? '/', 'http://viewer');
    const path = url.pathname;
    if (path === '/') return sendText(res, 200, page, 'text/html; charset=utf-8');
    if (path === '/app.js') return sendText(res, 200, script, 'text/javascript; charset=utf-8');
    try {
      if (path === '/api/runs') return send(res, 200, { runs: await opts.source.list(parseRunFilter(url.searchParams)) });
      const stream = /^\/api\/runs\/([^/]+)\/stream$/.exec(path);
      if (stream) {
        if (!opts.events) return send(res, 404, { error: 'this viewer serves no event streams' });
        return serveEvents(req, res, opts.events, workflowIdOf(stream[1]));
      }
      const node = /^\/api\/runs\/([^/]+)\/nodes\/(\d{1,9})$/.exec(path);
      if (node) return send(res, 200, await opts.source.node(workflowIdOf(node[1]), Number(node[2])));
      const run = /^\/api\/runs\/([^/]+)$/.exec(path);
      if (run) {
        const view = await opts.source.view(workflowIdOf(run[1]));
        return send(res, 200, url.searchParams.get('rev') === view.rev ? { rev: view.rev, live: view.live, unchanged: true } : view);
      }
    } catch (err) {
      if (err instanceof RunNotFoundError) return send(res, 404, { error: err.message });
      if (err instanceof ViewerInputError) return send(res, 400, { error: err.message });
      return send(res, 502, { error: `Temporal: ${(err as Error).message}` });
    }
    return send(res, 404, { error: `no page ${path}` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? DEFAULT_VIEWER_PORT, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A run's events as server-sent events, each named by its type: the stream ends after the run's
 * last status (or when the page goes away, which stops reading them). An error reading them ends
 * the stream with a `stream-error` event (not `error`: that name is the browser's own, for a
 * broken connection).
 */
async function serveEvents(req: IncomingMessage, res: ServerResponse, events: NonNullable<UiServerOptions['events']>, workflowId: string): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  req.once('close', stop);
  res.once('close', stop);
  res.writeHead(200, { ...HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  if (req.method === 'HEAD') return void res.end();
  res.write(': grove run events\n\n');
  const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
  try {
    for await (const event of events(workflowId, controller.signal)) {
      if (controller.signal.aborted) break;
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    }
  } catch (err) {
    if (!controller.signal.aborted) res.write(`event: stream-error\ndata: ${JSON.stringify({ error: (err as Error).message })}\n\n`);
  } finally {
    clearInterval(keepalive);
    req.off('close', stop);
    res.off('close', stop);
    res.end();
  }
}

function workflowIdOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ViewerInputError(`the workflow id in the path is not valid URL encoding: ${JSON.stringify(segment.slice(0, 80))}`);
  }
}

function isLoopbackHost(header: string | undefined, port: number): boolean {
  if (!header) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header.toLowerCase());
  if (!m) return false;
  const name = m[1].replace(/^\[|\]$/g, '');
  return LOOPBACK.has(name) && (m[2] === undefined ? port === 80 : Number(m[2]) === port);
}

const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'content-security-policy': SERVED_CSP };

function sendText(res: ServerResponse, status: number, body: string, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  sendText(res, status, JSON.stringify(body), 'application/json; charset=utf-8', extra);
}
