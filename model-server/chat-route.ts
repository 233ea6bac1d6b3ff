import type http from 'node:http';
import { buildCompletion } from './completion';
import { requestHash } from './hashing';
import { UNPARSABLE_JSON, parseJson, sendError, sendJson } from './http-io';
import { parseModelName } from './model-name';
import { badRequest, modelNotFound, policyFailure } from './openai-errors';
import { messageText } from './policies/conversation';
import type { Profile } from './profiles';
import { checkChatRequest, zodIssueError } from './request-checks';
import { chatRequestSchema } from './request-schema';
import { passHoldsAndFaults, track } from './response-faults';
import { choiceSeedText, seededRng } from './rng';
import { streamChat } from './stream-route';
import { type ServerContext, authError, callKeyOf, modelKey } from './server-context';
import type { PolicyContext } from './types';

/**
 * POST /v1/chat/completions: counted first (an invalid request is logged with its text too),
 * then checked as OpenAI checks it, held or failed on command, and answered by the model's
 * policy with choices seeded by the server's seed and the request, so a retry gets the same answer.
 * `stream: true` gets the same answer as server-sent chunks (`streamChat`), unless the profile's
 * server does not stream (then it is refused, or answered whole).
 */
export async function handleChat(ctx: ServerContext, req: http.IncomingMessage, res: http.ServerResponse, text: string, profile: Profile): Promise<void> {
  const parsed = parseJson(text);
  const body = parsed.ok ? parsed.value : undefined;
  const key = modelKey(ctx, body);
  const raw = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const n = typeof raw.n === 'number' ? raw.n : 1;
  const messages = Array.isArray(raw.messages) ? raw.messages : [];
  const lastUser = [...messages].reverse().find((m) => m && (m as { role?: unknown }).role === 'user') as
    | { role: 'user'; content: unknown }
    | undefined;
  // Read from the raw body so that invalid requests are logged with their text too.
  const lastUserTextRaw = lastUser ? messageText(lastUser as never) : '';
  const callKey = callKeyOf(req);
  const ticket = ctx.stats.begin(key, { callKey, lastUserText: lastUserTextRaw, n, messages: messages.length });
  const state = track(ctx, res, ticket);

  const auth = authError(ctx, req);
  if (auth) return sendError(res, auth);
  if (!parsed.ok) return sendError(res, badRequest(UNPARSABLE_JSON));
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return sendError(res, badRequest('The request body must be a JSON object.'));
  }
  const result = chatRequestSchema.safeParse(body);
  if (!result.success) return sendError(res, zodIssueError(result.error.issues, body));
  const chat = result.data;
  const { policy: policyName, options } = parseModelName(chat.model);
  const policy = ctx.policies.get(policyName);
  if (!policy) return sendError(res, modelNotFound(chat.model));

  const texts = chat.messages.map(messageText);
  const target = { policy: policyName, model: chat.model, texts, callIndex: ticket.callIndex, callKey };
  if (!(await passHoldsAndFaults(ctx, target, res))) return;

  const problem = profile.refusal(chat) ?? checkChatRequest(chat, { maxContextChars: ctx.maxContextChars, strictToolMessages: ctx.strictToolMessages });
  if (problem) return sendError(res, problem);

  const hash = requestHash(raw);
  const count = profile.choices(chat.n ?? 1);
  const policyCtx: PolicyContext = {
    n: count,
    options,
    rng: (i) => seededRng(choiceSeedText(ctx.seed, policy.name, hash, i)),
  };
  if (chat.stream && profile.streams !== 'json') {
    const usage = profile.streams === 'sse' && chat.stream_options?.include_usage === true;
    return streamChat(ctx, res, { chat: { ...chat, n: count }, hash, policy, policyCtx, target, state, includeUsage: usage });
  }
  let replies;
  try {
    replies = await policy.respond(chat, policyCtx);
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
