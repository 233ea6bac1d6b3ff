import type { ConversationInput, ConversationRefs } from './conversation-refs';
import type { Ref } from './refs';

/**
 * Runs an activity that needs the conversation at `path`: sends the ref plus whatever the store
 * may lack, records what the store now holds once it succeeded, and on a store miss (a worker
 * that cannot see the store) resends everything inline once.
 *
 * @example
 * const result = await withConversation(refs, path, (conversation) => llmChat({ conversation, model }), isStoreMiss);
 */
export async function withConversation<R>(
  refs: ConversationRefs,
  path: Ref,
  run: (conversation: ConversationInput) => Promise<R>,
  isStoreMiss: (err: unknown) => boolean = () => false,
): Promise<R> {
  let input = refs.input(path);
  let result: R;
  try {
    result = await run(input);
  } catch (err) {
    if (!isStoreMiss(err)) throw err;
    refs.forgetStored();
    input = refs.input(path, { all: true });
    result = await run(input);
  }
  refs.markStored(input);
  return result;
}
