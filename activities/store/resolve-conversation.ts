import { ApplicationFailure } from '@temporalio/common';
import type { ConversationInput } from '../../core/hash/conversation-refs';
import { rebuildConversation } from '../../core/hash/rebuild-conversation';
import { messageRef, pathRef } from '../../core/hash/refs';
import { LlmFailure } from '../../core/schemas/llm-failures';
import type { Message } from '../../core/schemas/messages';
import type { MessageStore } from './message-store';


/**
 * Writes what the input carries (after checking each entry matches its ref), then rebuilds
 * the conversation by walking the path chain to the root.
 */
export async function resolveConversation(store: MessageStore, input: ConversationInput): Promise<Message[]> {
  const { paths = {}, messages = {} } = input.writes ?? {};
  for (const [ref, message] of Object.entries(messages)) {
    if (messageRef(message) !== ref) throw ApplicationFailure.nonRetryable(`message does not match its ref ${ref}`, 'GroveBadRef');
  }
  for (const [ref, record] of Object.entries(paths)) {
    if (pathRef(record) !== ref) throw ApplicationFailure.nonRetryable(`path record does not match its ref ${ref}`, 'GroveBadRef');
  }
  await store.putMessages(messages);
  await store.putPaths(paths);

  return rebuildConversation(
    input.path,
    (ref) => paths[ref] ?? store.getPath(ref),
    (ref) => messages[ref] ?? store.getMessage(ref),
    (what) => miss(store, what),
  );
}

function miss(store: MessageStore, what: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(
    `the message store (${store.describe()}) has no ${what}; is GROVE_STORE_DIR shared by all workers of this task queue?`,
    LlmFailure.StoreMiss,
  );
}
