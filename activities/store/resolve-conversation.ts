import { ApplicationFailure } from '@temporalio/common';
import type { ConversationInput } from '../../core/hash/conversation-refs';
import { rebuildConversation } from '../../core/hash/rebuild-conversation';
import { messageRef, pathRef, type PathRecord, type Ref } from '../../core/hash/refs';
import { LlmFailure, StoreFailure } from '../../core/failures';
import type { Message } from '../../core/schemas/messages';
import { activityContext } from '../activity-context';
import { historyReader } from './history-recovery';
import type { MessageStore, StoreEntry } from './message-store';

const readHistory = historyReader();
let warnedNotShared = false;

/**
 * Writes what the input carries (after checking each entry matches its ref), then rebuilds the
 * conversation by walking the path chain to the root. Inside an activity, entries are written
 * on behalf of the activity's workflow (their owner, for retention), and anything the store
 * lacks is recovered from the run's history (see `contentFromHistory`) and written back; only
 * content that is in neither fails, with `GroveStoreMiss`.
 *
 * @example
 * const conversation = await resolveConversation(store, input.conversation);
 */
export async function resolveConversation(store: MessageStore, input: ConversationInput): Promise<Message[]> {
  const { paths = {}, messages = {} } = input.writes ?? {};
  for (const [ref, message] of Object.entries(messages)) {
    if (messageRef(message) !== ref) throw ApplicationFailure.nonRetryable(`message does not match its ref ${ref}`, StoreFailure.BadRef);
  }
  for (const [ref, record] of Object.entries(paths)) {
    if (pathRef(record) !== ref) throw ApplicationFailure.nonRetryable(`path record does not match its ref ${ref}`, StoreFailure.BadRef);
  }
  const owner = currentOwner();
  await store.put({ ...messages, ...paths }, owner);

  const recovery = new Recovery(store, owner);
  const conversation = await rebuildConversation(
    input.path,
    async (ref) => (paths[ref] ?? (await store.get(ref)) ?? (await recovery.find(ref))) as PathRecord | undefined,
    async (ref) => (messages[ref] ?? (await store.get(ref)) ?? (await recovery.find(ref))) as Message | undefined,
    (what) => recovery.miss(what),
  );
  await recovery.writeBack();
  return conversation;
}

/** The workflow id of the current activity: the owner of what it writes. */
export function currentOwner(): string | undefined {
  return activityContext()?.info.workflowExecution?.workflowId;
}

/** What one resolution recovered from the run's history, written back to the store at the end. */
class Recovery {
  private content?: Map<Ref, StoreEntry>;
  private readonly recovered: Record<Ref, StoreEntry> = {};
  private failure?: string;
  private fresh = false;
  private readonly startedAtMs = Date.now();

  constructor(
    private readonly store: MessageStore,
    private readonly owner: string | undefined,
  ) {}

  async find(ref: Ref): Promise<StoreEntry | undefined> {
    const ctx = activityContext();
    const execution = ctx?.info.workflowExecution;
    if (!ctx || !execution || this.failure !== undefined) return undefined;
    try {
      // A scan another activity made a moment ago may predate what this one needs: read again once.
      this.content ??= await readHistory(ctx.client, execution);
      if (!this.content.has(ref) && !this.fresh) {
        this.fresh = true;
        this.content = await readHistory(ctx.client, execution, this.startedAtMs);
      }
    } catch (err) {
      this.failure = (err as Error).message;
      return undefined;
    }
    const entry = this.content.get(ref);
    if (entry !== undefined) this.recovered[ref] = entry;
    return entry;
  }

  async writeBack(): Promise<void> {
    const count = Object.keys(this.recovered).length;
    if (count === 0) return;
    await this.store.put(this.recovered, this.owner);
    if (!warnedNotShared) {
      warnedNotShared = true;
      activityContext()?.log.warn(
        `grove: the message store (${this.store.describe()}) lacked ${count} ${count === 1 ? 'entry' : 'entries'} that earlier activities of workflow ${this.owner} had stored; ` +
          `they were recovered from the run's history. If workers on more than one host serve this task queue, their stores are not shared: ` +
          `give every worker one store (GROVE_STORE_URL=postgres://…). A wiped store recovers the same way, at the cost of a history read.`,
      );
    }
  }

  miss(what: string): ApplicationFailure {
    const run = this.owner
      ? ` needed by workflow ${this.owner}, and ${this.failure ? `its history could not be read (${this.failure})` : 'not in the history of its runs either'}`
      : '';
    return ApplicationFailure.nonRetryable(
      `the message store (${this.store.describe()}) has no ${what}${run}: the content is lost. ` +
        `Give every worker one store of record (GROVE_STORE_URL=postgres://…) and keep its entries as long as runs may continue (grove store gc --retention).`,
      LlmFailure.StoreMiss,
    );
  }
}
