import type { ConversationRefs } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import type { ChatActivityResult, ChatRequest } from '../schemas/llm-call';

/**
 * What an AI call needs from its environment. In a workflow the chat goes through the model
 * activity and `sleep` is a durable timer; in-process (unit tests, benchmark baselines) they
 * are plain function calls. The algorithm is the same code either way.
 */
export interface AICallPort {
  chat(refs: ConversationRefs, path: Ref, request: ChatRequest): Promise<ChatActivityResult>;
  sleep(ms: number): Promise<void>;
  log?(message: string): void;
  /** Called after each round of samples lands in the tree (progress reporting). */
  onSamples?(summary: { calls: number; retries: number; activeSampleId: number }): void;
}

/** A failure recorded on a call (with `catchErrors`), as plain data. */
export interface CallError {
  message: string;
  /** The failure type, e.g. `GroveModelNotFound`, when the error carried one. */
  type?: string;
}

/**
 * The first error in a cause chain that carries a failure `type` (an activity's
 * ApplicationFailure), else the outermost error. Duck-typed, so core needs no Temporal import.
 */
export function describeError(err: unknown): CallError {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const type = (e as { type?: unknown }).type;
    if (typeof type === 'string' && type) return { message: e.message, type };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}
