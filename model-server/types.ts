/**
 * Public types of the scripted model server: policies, faults, statistics and options.
 *
 * WHY a separate file: policies, the server and tests all share these shapes, and keeping them
 * free of runtime code lets a policy file import them without pulling in `node:http`.
 */
import type { ChatRequest } from './request-schema';

export type { ChatRequest, ChatMessage, FunctionTool, EmbeddingsRequest } from './request-schema';

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

/** One tool call a policy wants to make. A string `arguments` is sent verbatim (it may be broken JSON on purpose). */
export interface PolicyToolCall {
  name: string;
  arguments: unknown | string;
}

/** One choice of a completion, as a policy describes it. */
export interface PolicyReply {
  content?: string | null;
  toolCalls?: PolicyToolCall[];
  /** Default: 'tool_calls' when there are tool calls, else 'stop' ('length' is set by the server when max_tokens cuts). */
  finishReason?: FinishReason;
}

export interface PolicyContext {
  /** Number of choices requested; `respond` must return exactly this many replies. */
  n: number;
  /** Options from the model-name suffix: `'multiplier?p=0.3'` gives `{ p: '0.3' }`. */
  options: Record<string, string>;
  /**
   * A fresh PRNG (uniform in [0, 1)) for choice `choiceIndex`. Each call returns a NEW generator
   * starting from the same state, seeded by (server seed, policy name, request hash, choice index).
   */
  rng(choiceIndex: number): () => number;
}

/** A scripted "model". Must be a pure function of (request, options, rng): no clock, no globals. */
export interface ChatPolicy {
  name: string;
  /** One-line description, listed by GET /v1/models (as `description`) and in the README. */
  description?: string;
  /** Returns exactly `ctx.n` replies (one per choice). A scripted policy answers at once: it has no use for `live`. */
  respond(req: ChatRequest, ctx: PolicyContext, live?: LiveText): PolicyReply[];
}

/**
 * Where a model that writes as it thinks sends its text while it writes, when the request is
 * streamed: `text(choice, piece)` per piece of a plain-text answer (the pieces of a choice,
 * joined, are the start of its content). Answers it cannot stream (tool calls, grammars that
 * are parsed afterwards) are sent whole when `respond` resolves.
 */
export interface LiveText {
  text(choice: number, piece: string): void;
}

/** A model that answers asynchronously: a real one (grove's local model). The server serves both kinds. */
export interface AsyncChatPolicy {
  name: string;
  description?: string;
  respond(req: ChatRequest, ctx: PolicyContext, live?: LiveText): Promise<PolicyReply[]>;
}

export type FaultAction =
  | { kind: 'status'; status: number; retryAfterSeconds?: number; message?: string; code?: string }
  /** Wait, then answer normally. */
  | { kind: 'latency'; ms: number }
  /** 200 with a body that is not a valid completion (default: not JSON). */
  | { kind: 'malformed'; body?: string }
  /** Never answer; the request stays in flight until the client aborts (or the server closes). */
  | { kind: 'hang' };

export interface FaultMatch {
  /** Policy name (`'multiplier'`) or the full model string (`'multiplier?p=0.3'`). */
  model?: string;
  /** Substring of any message text (chat) or of any input (embeddings). */
  contains?: string;
  /** 0-based index of this request among the requests to that policy (counted since start/reset). */
  callIndex?: number;
  /** Prefix of the `x-grove-call-key` header. */
  callKeyPrefix?: string;
  /** Only every n-th request that matches the rest (counted per rule): a steady fault rate. */
  every?: number;
}

export interface FaultRule {
  match?: FaultMatch;
  action: FaultAction;
  /** How many matching requests it applies to (default 1; 0 = forever). */
  times?: number;
}

export interface OutcomeCounters {
  received: number;
  completed: number;
  failed: number;
  aborted: number;
  inFlight: number;
  /** The most requests that were in flight at once. */
  peakInFlight: number;
}

export type RequestOutcome = 'completed' | 'failed' | 'aborted';

export interface RequestLogEntry {
  model: string;
  callKey?: string;
  status: number;
  outcome: RequestOutcome;
  lastUserText: string;
  n: number;
  /** How many messages the request sent (0 for embeddings): how much conversation the model saw. */
  messages: number;
  /** True when the answer was streamed (`stream: true`, sent as server-sent chunks). */
  streamed?: boolean;
}

export interface ServerStats {
  total: OutcomeCounters;
  /** By policy name (or by the raw model string when no policy matched). */
  byModel: Record<string, OutcomeCounters>;
  callKeys: {
    /** Distinct `x-grove-call-key` values seen. */
    distinct: number;
    /** Requests whose call key had ALREADY completed before: a completed call paid for twice. */
    repeatedAfterCompletion: number;
    /** The call keys counted above (each listed once). */
    repeated: string[];
  };
  /** The latest requests, oldest first, capped at 10,000 entries. */
  requests: RequestLogEntry[];
  /** Call keys of the requests held unanswered now (`hold`; '' for a request without one). */
  held: string[];
}

export interface ModelServerOptions {
  /** 0 = a random free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0; mixes into every policy's randomness. */
  seed?: number;
  /** When set, any other bearer key gets 401 invalid_api_key. */
  apiKeys?: string[];
  /** Added to / overriding the built-in policies by name. */
  policies?: Array<ChatPolicy | AsyncChatPolicy>;
  /** Total characters of message text above this give 400 context_length_exceeded (default 1e6). */
  maxContextChars?: number;
  /**
   * Reject conversations whose tool messages do not answer a preceding assistant tool call, or
   * whose assistant tool calls are not all answered, as OpenAI does (default true).
   */
  strictToolMessages?: boolean;
  /**
   * Milliseconds between the tokens of a streamed answer (default 0): a stream a test or a
   * benchmark can watch grow. Answers that are not streamed are not slowed.
   */
  tokenDelayMs?: number;
}

export interface ModelServer {
  /** http://HOST:PORT */
  url: string;
  /** url + '/v1': what OPENAI_BASE_URL should be. */
  baseURL: string;
  /** Names of the policies served (the model ids). */
  models: string[];
  stats(): ServerStats;
  /** Reset counters, call indices and faults. */
  reset(): void;
  addFault(f: FaultRule): void;
  clearFaults(): void;
  /**
   * Holds the requests `match` selects (every request when empty) unanswered — before any fault
   * rule — until `release`; a held request whose client goes away is counted aborted. With
   * `afterTokens: N`, a streamed answer is held after its N-th token instead (mid-stream), and
   * answers that are not streamed go on.
   */
  hold(match?: FaultMatch, opts?: { afterTokens?: number }): void;
  /** Lets every held request go on to its answer (or fault rule) and stops holding; returns their call keys. */
  release(): string[];
  close(): Promise<void>;
}
