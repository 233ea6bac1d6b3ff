import type { Message } from '../schemas/messages';
import { rebuildConversation } from './rebuild-conversation';
import { messageRef, pathRef, type PathRecord, type Ref } from './refs';

/**
 * What an activity needs to rebuild a conversation: one path ref, plus the records and
 * messages the store may not hold yet. Writes ride along only until an activity that carried
 * them succeeds; after that the ref alone is enough, so history stays flat as paths deepen.
 */
export interface ConversationInput {
  path: Ref;
  writes?: { paths?: Record<Ref, PathRecord>; messages?: Record<Ref, Message> };
}

/**
 * Workflow-side bookkeeping for the message store: it knows every path record and message
 * it created, and which refs are confirmed stored. Pure and deterministic, so it can live in
 * workflow state (its JSON form travels through continue-as-new).
 *
 * @example
 * const refs = new ConversationRefs();
 * const root = refs.addPath(null, undefined, [systemMessage('Be brief'), userMessage('Say hi!')]);
 * const input = refs.input(root);          // carries the root record and both messages
 * // ... the activity succeeds ...
 * refs.markStored(input);                  // later inputs for `root` carry only the ref
 */
export class ConversationRefs {
  private readonly paths = new Map<Ref, PathRecord>();
  private readonly messages = new Map<Ref, Message>();
  private readonly stored = new Set<Ref>();

  /** Registers a path step and returns its ref. */
  addPath(parent: Ref | null, keep: number | undefined, add: Message[]): Ref {
    const addRefs = add.map((m) => this.addMessage(m));
    const record: PathRecord = keep === undefined ? { parent, add: addRefs } : { parent, keep, add: addRefs };
    const ref = pathRef(record);
    this.paths.set(ref, record);
    return ref;
  }

  addMessage(message: Message): Ref {
    const ref = messageRef(message);
    if (!this.messages.has(ref)) this.messages.set(ref, message);
    return ref;
  }

  /** A message this object knows, by ref. */
  message(ref: Ref): Message | undefined {
    return this.messages.get(ref);
  }

  /** A path record this object knows, by ref. */
  record(ref: Ref): PathRecord | undefined {
    return this.paths.get(ref);
  }

  /**
   * Only what the conversations at `paths` need: their records and messages (and whether each is
   * stored). What a long-lived run hands over through continue-as-new, leaving out branches it
   * will never send again.
   *
   * @example
   * const carried = refs.restrictedTo([livePath]).toJSON();
   */
  restrictedTo(paths: Ref[]): ConversationRefs {
    const out = new ConversationRefs();
    for (const start of paths) {
      for (let ref: Ref | null = start; ref !== null && !out.paths.has(ref); ) {
        const record = this.paths.get(ref);
        if (!record) throw new Error(`unknown conversation path ${ref}`);
        out.paths.set(ref, record);
        if (this.stored.has(ref)) out.stored.add(ref);
        for (const m of record.add) {
          out.messages.set(m, this.messages.get(m)!);
          if (this.stored.has(m)) out.stored.add(m);
        }
        ref = record.parent;
      }
    }
    return out;
  }

  /** Marks refs that an activity has written to the store itself (e.g. the model's reply). */
  markRefsStored(refs: Iterable<Ref>): void {
    for (const ref of refs) this.stored.add(ref);
  }

  /** The input for an activity that needs the conversation at `path`. With `all`, every write is included (store miss recovery). */
  input(path: Ref, opts: { all?: boolean } = {}): ConversationInput {
    const paths: Record<Ref, PathRecord> = {};
    const messages: Record<Ref, Message> = {};
    let count = 0;
    for (let ref: Ref | null = path; ref !== null; ) {
      const record = this.paths.get(ref);
      if (!record) throw new Error(`unknown conversation path ${ref}`);
      if (opts.all || !this.stored.has(ref)) {
        paths[ref] = record;
        count++;
        for (const m of record.add) {
          if (opts.all || !this.stored.has(m)) messages[m] = this.messages.get(m)!;
        }
      }
      ref = record.parent;
    }
    return count === 0 ? { path } : { path, writes: { paths, messages } };
  }

  /** The conversation at `path`, rebuilt from the records this object knows (in-process runs, tests). */
  resolve(path: Ref): Promise<Message[]> {
    return rebuildConversation(path, (r) => this.paths.get(r), (r) => this.messages.get(r), (what) => new Error(`unknown conversation ${what}`));
  }

  /** After an activity carrying `input` succeeded, everything it carried is in the store. */
  markStored(input: ConversationInput): void {
    for (const ref of Object.keys(input.writes?.paths ?? {})) this.stored.add(ref);
    for (const ref of Object.keys(input.writes?.messages ?? {})) this.stored.add(ref);
  }

  /** Forget what is stored (e.g. after a store miss on another host): the next inputs resend everything. */
  forgetStored(): void {
    this.stored.clear();
  }

  toJSON(): { paths: [Ref, PathRecord][]; messages: [Ref, Message][]; stored: Ref[] } {
    return { paths: [...this.paths], messages: [...this.messages], stored: [...this.stored] };
  }

  static fromJSON(json: ReturnType<ConversationRefs['toJSON']>): ConversationRefs {
    const refs = new ConversationRefs();
    for (const [k, v] of json.paths) refs.paths.set(k, v);
    for (const [k, v] of json.messages) refs.messages.set(k, v);
    for (const k of json.stored) refs.stored.add(k);
    return refs;
  }
}
