import type http from 'node:http';
import { FaultBook } from './fault-book';
import { HoldGate } from './hold-gate';
import { parseModelName } from './model-name';
import { type HttpError, unauthorized } from './openai-errors';
import { BUILT_IN_POLICIES } from './policies';
import { StatsRecorder } from './stats-recorder';
import type { AsyncChatPolicy, ChatPolicy, ModelServerOptions } from './types';

/**
 * What one model server's routes share: its options, its policies by name, the faults and holds
 * it was told to apply, what it counted, and the responses and timers it must settle on close.
 */
export interface ServerContext {
  seed: number;
  maxContextChars: number;
  strictToolMessages: boolean;
  /** Milliseconds between the tokens of a streamed answer. */
  tokenDelayMs: number;
  /** The keys a request must bear, when the server has any. */
  apiKeys?: Set<string>;
  policies: Map<string, ChatPolicy | AsyncChatPolicy>;
  faults: FaultBook;
  gate: HoldGate;
  stats: StatsRecorder;
  /** Latency waits under way (cleared on close). */
  timers: Set<NodeJS.Timeout>;
  /** Settles when a tracked response closes; close() waits for these so stats are final. */
  open: Set<Promise<void>>;
  /** True once close() began: waits end, no new latency starts. */
  closing: boolean;
}

/** A fresh context for `opts`: the built-in policies and the caller's (a caller's wins on a name). */
export function serverContext(opts: ModelServerOptions): ServerContext {
  const policies = new Map<string, ChatPolicy | AsyncChatPolicy>();
  for (const p of [...BUILT_IN_POLICIES, ...(opts.policies ?? [])]) policies.set(p.name, p);
  return {
    seed: opts.seed ?? 0,
    maxContextChars: opts.maxContextChars ?? 1e6,
    strictToolMessages: opts.strictToolMessages ?? true,
    tokenDelayMs: opts.tokenDelayMs ?? 0,
    apiKeys: opts.apiKeys ? new Set(opts.apiKeys) : undefined,
    policies,
    faults: new FaultBook(),
    gate: new HoldGate(),
    stats: new StatsRecorder(),
    timers: new Set(),
    open: new Set(),
    closing: false,
  };
}

/** The 401 for a request without one of the server's keys; undefined when it has one (or the server needs none). */
export function authError(ctx: ServerContext, req: http.IncomingMessage): HttpError | undefined {
  if (!ctx.apiKeys) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const key = m?.[1].trim();
  return key && ctx.apiKeys.has(key) ? undefined : unauthorized(key);
}

/** The `x-grove-call-key` header grove's activities send (a fault or a hold can match it). */
export function callKeyOf(req: http.IncomingMessage): string | undefined {
  const v = req.headers['x-grove-call-key'];
  return Array.isArray(v) ? v[0] : v;
}

/** The name a request is counted under: its policy when the server has it, else the model as sent. */
export function modelKey(ctx: ServerContext, body: unknown): string {
  const model = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  if (typeof model !== 'string' || !model) return '(none)';
  const { policy } = parseModelName(model);
  return ctx.policies.has(policy) ? policy : model;
}
