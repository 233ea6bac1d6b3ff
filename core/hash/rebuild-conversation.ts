import type { Message } from '../schemas/messages';
import type { PathRecord, Ref } from './refs';

type Lookup<T> = (ref: Ref) => T | undefined | Promise<T | undefined>;

/**
 * Rebuilds the conversation at `path` by walking its records up to the root and replaying
 * them downwards (keep the first `keep` messages of the parent's conversation, add the step's
 * messages). The lookups may be synchronous (in memory) or not (a store). A missing ref is
 * reported through `missing`, whose error is thrown.
 *
 * @example
 * const conversation = await rebuildConversation(ref, (r) => paths.get(r), (r) => messages.get(r), (what) => new Error(`no ${what}`));
 */
export async function rebuildConversation(
  path: Ref,
  getPath: Lookup<PathRecord>,
  getMessage: Lookup<Message>,
  missing: (what: string) => Error,
): Promise<Message[]> {
  const chain: PathRecord[] = [];
  for (let ref: Ref | null = path; ref !== null; ) {
    const record: PathRecord | undefined = await getPath(ref);
    if (!record) throw missing(`path ${ref}`);
    chain.push(record);
    ref = record.parent;
  }
  let conversation: Message[] = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    const { keep, add } = chain[i];
    if (keep !== undefined) conversation = conversation.slice(0, keep);
    for (const ref of add) {
      const message = await getMessage(ref);
      if (!message) throw missing(`message ${ref}`);
      conversation.push(message);
    }
  }
  return conversation;
}
