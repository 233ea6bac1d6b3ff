import type { ConversationInput } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import type { ChatParams } from './chat-params';
import type { AssistantMessage, Usage } from './messages';

/** Input of the `llmChat` activity: a conversation by reference, never inline (DESIGN.md). */
export interface ChatActivityInput {
  conversation: ConversationInput;
  /** Model name; the worker's default model when omitted. */
  model?: string;
  params?: ChatParams;
  /** Stamped on the reply messages as `runId` so multi-sample answers can be told apart. */
  runId?: string;
  /** A system message sent before the conversation (an agent's prompt, which may change as it reflects). */
  system?: string;
  /** The run's ledger key for this call (`CallLedger`): where its result is recorded for reuse. */
  callKey?: string;
}

/** What a caller asks of one chat call, besides the conversation. */
export interface ChatRequest {
  model?: string;
  params?: ChatParams;
  runId?: string;
  system?: string;
  /** One line for the Temporal UI, e.g. "samples 7-8 ← 4". */
  summary?: string;
}

export interface ChatChoice {
  message: AssistantMessage;
  /** The message's ref; the activity has already written it to the store. */
  ref: Ref;
  finishReason: string;
}

export interface ChatActivityResult {
  choices: ChatChoice[];
  usage: Usage;
  model: string;
  /** What the worker did to get this answer from a server with quirks (e.g. "n=3 emulated by 3 requests"). */
  compat?: string[];
}

export interface EmbedActivityInput {
  texts: string[];
  model?: string;
  dimensions?: number;
  /** The run's ledger key for this call (`CallLedger`): where its result is recorded for reuse. */
  callKey?: string;
}

export interface EmbedActivityResult {
  embeddings: number[][];
  usage: Usage;
  model: string;
}
