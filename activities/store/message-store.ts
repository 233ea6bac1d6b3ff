import type { PathRecord, Ref } from '../../core/hash/refs';
import type { Message } from '../../core/schemas/messages';

/**
 * Content-addressed storage of messages and path records (DESIGN.md, "Data flow"). Entries
 * are immutable: a ref always names the same content, so writes are idempotent and any
 * worker may write the same entry twice.
 */
export interface MessageStore {
  putMessages(entries: Record<Ref, Message>): Promise<void>;
  putPaths(entries: Record<Ref, PathRecord>): Promise<void>;
  getMessage(ref: Ref): Promise<Message | undefined>;
  getPath(ref: Ref): Promise<PathRecord | undefined>;
  /** The recorded result of an activity attempt that finished (see `callOnce`), by call key. */
  getCallResult(key: string): Promise<unknown>;
  putCallResult(key: string, result: unknown): Promise<void>;
  /** A short description for logs, e.g. "folder .grove/store". */
  describe(): string;
}

/** In-process store, for tests and in-process runs. */
export class MemoryMessageStore implements MessageStore {
  readonly messages = new Map<Ref, Message>();
  readonly paths = new Map<Ref, PathRecord>();
  readonly calls = new Map<string, unknown>();

  async putMessages(entries: Record<Ref, Message>): Promise<void> {
    for (const [ref, m] of Object.entries(entries)) this.messages.set(ref, m);
  }
  async putPaths(entries: Record<Ref, PathRecord>): Promise<void> {
    for (const [ref, p] of Object.entries(entries)) this.paths.set(ref, p);
  }
  async getMessage(ref: Ref): Promise<Message | undefined> {
    return this.messages.get(ref);
  }
  async getPath(ref: Ref): Promise<PathRecord | undefined> {
    return this.paths.get(ref);
  }
  async getCallResult(key: string): Promise<unknown> {
    return this.calls.get(key);
  }
  async putCallResult(key: string, result: unknown): Promise<void> {
    this.calls.set(key, result);
  }
  describe(): string {
    return 'memory';
  }
}
