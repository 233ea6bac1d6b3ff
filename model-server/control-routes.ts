import type http from 'node:http';
import { faultRuleSchema } from './fault-book';
import { UNPARSABLE_JSON, parseJson, readBody, sendError, sendJson } from './http-io';
import { badRequest, notFound } from './openai-errors';
import { zodIssueError } from './request-checks';
import { type ServerContext, authError } from './server-context';
import type { FaultRule } from './types';

/** The request log over HTTP is short (`?log=N`, at most HTTP_LOG_MAX) and its texts are clipped: it holds prompts. */
const HTTP_LOG_DEFAULT = 100;
const HTTP_LOG_MAX = 1000;
const HTTP_TEXT_MAX = 200;

/**
 * The control routes under /_grove/: health (open to all), then — with the API key when the
 * server has one, since they read prompts or change behaviour — stats, reset, faults, hold and
 * release.
 */
export async function handleControl(ctx: ServerContext, req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
  const method = req.method ?? 'GET';
  if (method === 'GET' && path === '/_grove/health') return sendJson(res, 200, { ok: true, models: [...ctx.policies.keys()] });
  // Everything else reads prompts or changes behaviour: it takes the API key when the server has one.
  const auth = authError(ctx, req);
  if (auth) return sendError(res, auth);
  if (method === 'GET' && path === '/_grove/stats') {
    const snapshot = { ...ctx.stats.snapshot(), held: ctx.gate.held() };
    const asked = Number(new URL(req.url ?? '/', 'http://localhost').searchParams.get('log') ?? HTTP_LOG_DEFAULT);
    const keep = Number.isFinite(asked) ? Math.max(0, Math.min(HTTP_LOG_MAX, Math.floor(asked))) : HTTP_LOG_DEFAULT;
    const requests = (keep === 0 ? [] : snapshot.requests.slice(-keep)).map((r) => ({ ...r, lastUserText: r.lastUserText.slice(0, HTTP_TEXT_MAX) }));
    return sendJson(res, 200, { ...snapshot, requests });
  }
  if (method === 'POST' && path === '/_grove/reset') {
    await readBody(req);
    ctx.stats.reset();
    ctx.faults.clear();
    return sendJson(res, 200, { ok: true });
  }
  if (method === 'POST' && path === '/_grove/hold') {
    const parsed = parseJson((await readBody(req)) || '{}');
    const { afterTokens, ...rest } = parsed.ok && parsed.value && typeof parsed.value === 'object' ? (parsed.value as { afterTokens?: unknown }) : { afterTokens: undefined };
    const match = parsed.ok ? faultRuleSchema.shape.match.safeParse(rest) : undefined;
    const after = afterTokens === undefined ? undefined : Number(afterTokens);
    if (!match?.success || (after !== undefined && !(Number.isInteger(after) && after >= 0))) {
      return sendError(res, badRequest('The body must be a fault match: { model?, contains?, callIndex?, callKeyPrefix? }, and optionally afterTokens (a whole number: hold streamed answers after that many tokens).'));
    }
    ctx.gate.hold(match.data ?? {}, { afterTokens: after });
    return sendJson(res, 200, { ok: true });
  }
  if (method === 'POST' && path === '/_grove/release') {
    await readBody(req);
    return sendJson(res, 200, { ok: true, released: ctx.gate.release() });
  }
  if (method === 'DELETE' && path === '/_grove/faults') {
    ctx.faults.clear();
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
    for (const rule of list) ctx.faults.add(rule as FaultRule);
    return sendJson(res, 200, { ok: true, faults: ctx.faults.size });
  }
  return sendError(res, notFound(method, path));
}
