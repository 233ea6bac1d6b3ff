import type { ResolvePathInput } from '../../core/schemas/agent-activities';
import type { Message } from '../../core/schemas/messages';
import type { MessageStore } from './message-store';
import { resolveConversation } from './resolve-conversation';

/**
 * `groveResolvePath`: the conversation at a path, read from the message store — how a search
 * gets its final trajectory, whose messages it never kept in workflow state.
 */
export function createStoreActivities(store: MessageStore) {
  return {
    async groveResolvePath(input: ResolvePathInput): Promise<Message[]> {
      return resolveConversation(store, input.path);
    },
  };
}
