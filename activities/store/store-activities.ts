import type { ResolvePathInput } from '../../core/schemas/agent-activities';
import type { Message } from '../../core/schemas/messages';
import type { MessageStore } from './message-store';
import { resolveConversation } from './resolve-conversation';
import { fitMessages } from '../../core/conversation/fit-message';
import { RESULT_BUDGET_BYTES } from '../../core/payload-limits';

/**
 * `groveResolvePath`: the conversation at a path, read from the message store — how a search
 * gets its final trajectory, whose messages it never kept in workflow state. A trajectory
 * larger than a result may carry comes back with its largest messages cut (each whole in the
 * store, named by its `cut.ref`): the run's result must still fit in Temporal.
 */
export function createStoreActivities(store: MessageStore) {
  return {
    async groveResolvePath(input: ResolvePathInput): Promise<Message[]> {
      return fitMessages(await resolveConversation(store, input.path), RESULT_BUDGET_BYTES);
    },
  };
}
