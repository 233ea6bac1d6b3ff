import type { Ref } from '../../core/hash/refs';
import type { CollectPlan, CollectReport, MessageStore, StoreEntry, StoreStats } from './message-store';
import type { TokenChannel } from './token-channel';

/**
 * A read-through, write-through cache in front of a store of record. Entries are immutable, so a
 * cache is always coherent; it only saves round trips (the upper levels of a search tree are read
 * by every activity). The cache is in memory, optionally backed by a local store (e.g. a folder
 * per host in front of PostgreSQL); losing the cache loses nothing.
 *
 * Call results are not cached: they are read at most once per attempt and must come from the
 * store of record, which every worker sees.
 *
 * @example
 * const store = new CachedStore(new PostgresMessageStore(url), { local: new FileMessageStore('/var/cache/grove') });
 */
export class CachedStore implements MessageStore {
  private readonly memory = new Map<Ref, StoreEntry>();
  private readonly local?: MessageStore;
  private readonly limit: number;

  constructor(
    readonly record: MessageStore,
    opts: { local?: MessageStore; memoryEntries?: number } = {},
  ) {
    this.local = opts.local;
    this.limit = opts.memoryEntries ?? 20_000;
  }

  async put(entries: Record<Ref, StoreEntry>, owner?: string): Promise<void> {
    await this.record.put(entries, owner);
    for (const [ref, value] of Object.entries(entries)) this.remember(ref, value);
    await this.local?.put(entries).catch(() => {}); // a cache that cannot be written is only a slower cache
  }

  async get(ref: Ref): Promise<StoreEntry | undefined> {
    const hot = this.memory.get(ref);
    if (hot !== undefined) return hot;
    let value = await this.local?.get(ref).catch(() => undefined);
    if (value === undefined) {
      value = await this.record.get(ref);
      if (value !== undefined) await this.local?.put({ [ref]: value }).catch(() => {});
    }
    if (value !== undefined) this.remember(ref, value);
    return value;
  }

  getCallResult(key: string): Promise<unknown> {
    return this.record.getCallResult(key);
  }
  putCallResult(key: string, result: unknown, owner?: string): Promise<void> {
    return this.record.putCallResult(key, result, owner);
  }
  /** The store of record's: every worker reads and writes streams there, never in a host's cache. */
  tokenChannel(): TokenChannel | undefined {
    return this.record.tokenChannel?.();
  }
  describe(): string {
    return this.local ? `${this.record.describe()} (cached in ${this.local.describe()})` : this.record.describe();
  }
  async check(): Promise<void> {
    await this.record.check();
    await this.local?.check();
  }
  stats(): Promise<StoreStats> {
    return this.record.stats();
  }
  collect(plan: CollectPlan): Promise<CollectReport> {
    this.memory.clear();
    return this.record.collect(plan);
  }
  async close(): Promise<void> {
    await this.record.close();
    await this.local?.close();
  }

  private remember(ref: Ref, value: StoreEntry): void {
    if (this.memory.has(ref)) return;
    if (this.memory.size >= this.limit) this.memory.delete(this.memory.keys().next().value as Ref);
    this.memory.set(ref, value);
  }
}
