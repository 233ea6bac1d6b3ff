import type http from 'node:http';
import { handleChat } from './chat-route';
import { FIXED_CREATED } from './completion';
import { handleControl } from './control-routes';
import { handleEmbeddings } from './embeddings-route';
import { readBody, sendError, sendJson } from './http-io';
import { parseModelName } from './model-name';
import { modelNotFound, notFound } from './openai-errors';
import { PROFILES, splitProfile } from './profiles';
import { type ServerContext, authError } from './server-context';

/**
 * Routes one request: /_grove/ to the control routes; otherwise an optional provider profile
 * prefix (`/anthropic/v1/...`), then chat completions, embeddings and the model list.
 */
export async function handleRequest(ctx: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const fullPath = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
  if (fullPath.startsWith('/_grove/')) return handleControl(ctx, req, res, fullPath);
  const routed = splitProfile(fullPath);
  if ('unknown' in routed) return sendError(res, notFound(method, fullPath, `Unknown provider profile "${routed.unknown}" (known: ${PROFILES.join(', ')})`));
  const { path, profile } = routed;
  if (method === 'POST' && path === '/v1/chat/completions') return handleChat(ctx, req, res, await readBody(req), profile);
  if (method === 'POST' && path === '/v1/embeddings') return handleEmbeddings(ctx, req, res, await readBody(req));
  if (method === 'GET' && path.startsWith('/v1/models')) {
    const auth = authError(ctx, req);
    if (auth) return sendError(res, auth);
    if (path === '/v1/models') return sendJson(res, 200, { object: 'list', data: modelList(ctx) });
    const id = decodeURIComponent(path.slice('/v1/models/'.length));
    const found = modelList(ctx).find((m) => m.id === parseModelName(id).policy);
    return found ? sendJson(res, 200, { ...found, id }) : sendError(res, modelNotFound(id));
  }
  return sendError(res, notFound(method, path));
}

function modelList(ctx: ServerContext) {
  return [...ctx.policies.values()].map((p) => ({
    id: p.name,
    object: 'model' as const,
    created: FIXED_CREATED,
    owned_by: 'grove',
    ...(p.description ? { description: p.description } : {}),
  }));
}
