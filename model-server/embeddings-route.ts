import type http from 'node:http';
import { buildEmbeddings, embeddingInputs } from './embeddings';
import { UNPARSABLE_JSON, parseJson, sendError, sendJson } from './http-io';
import { parseModelName } from './model-name';
import { badRequest } from './openai-errors';
import { zodIssueError } from './request-checks';
import { embeddingsRequestSchema } from './request-schema';
import { passHoldsAndFaults, track } from './response-faults';
import { type ServerContext, authError, callKeyOf } from './server-context';

/** POST /v1/embeddings: counted, checked, held or failed on command, then answered with deterministic vectors. */
export async function handleEmbeddings(ctx: ServerContext, req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
  const parsed = parseJson(text);
  const body = parsed.ok ? parsed.value : undefined;
  const raw = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const key = typeof raw.model === 'string' && raw.model ? parseModelName(raw.model).policy : '(none)';
  const first = typeof raw.input === 'string' ? raw.input : Array.isArray(raw.input) && typeof raw.input[0] === 'string' ? raw.input[0] : '';
  const callKey = callKeyOf(req);
  const ticket = ctx.stats.begin(key, { callKey, lastUserText: first, n: 1 });
  const state = track(ctx, res, ticket);

  const auth = authError(ctx, req);
  if (auth) return sendError(res, auth);
  if (!parsed.ok) return sendError(res, badRequest(UNPARSABLE_JSON));
  const result = embeddingsRequestSchema.safeParse(body);
  if (!result.success) return sendError(res, zodIssueError(result.error.issues, body));
  const emb = result.data;
  if (!(await passHoldsAndFaults(ctx, { policy: key, model: emb.model, texts: embeddingInputs(emb.input), callIndex: ticket.callIndex, callKey }, res))) return;
  state.outcome = 'completed';
  sendJson(res, 200, buildEmbeddings(emb));
}
