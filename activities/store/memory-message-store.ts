import type { Ref } from '../../core/hash/refs';
import type { CollectPlan, CollectReport, MessageStore, StoreEntry, StoreStats } from './message-store';
import { entryText, isFleetRecord } from './message-store';
import { MemoryTokenChannel } from './memory-token-channel';
import type { TokenChannel } from './token-channel';

interface Stamped<T> {
  value: T;
  owners: Set<string>;
  atMs: number;
}

/**
 * In-process store, for tests and in-process runs. It keeps owners and write times like the
 * durable backends, so retention logic is testable without a server.
 *
 * @example
 * const activities = createGroveActivities({ llm, store: new MemoryMessageStore() });
 */
export class MemoryMessageStore implements MessageStore {
  readonly entries = new Map<Ref, Stamped<StoreEntry>>();
  readonly calls = new Map<string, Stamped<unknown>>();
  private tokens?: MemoryTokenChannel;

  constructor(private readonly now: () => number = Date.now) {}

  /** Answers while they stream, in this process. */
  tokenChannel(): TokenChannel {
    return (this.tokens ??= new MemoryTokenChannel(this.now));
  }

  async put(entries: Record<Ref, StoreEntry>, owner?: string): Promise<void> {
    for (const [ref, value] of Object.entries(entries)) stamp(this.entries, ref, value, owner, this.now());
  }
  async get(ref: Ref): Promise<StoreEntry | undefined> {
    return this.entries.get(ref)?.value;
  }
  async getCallResult(key: string): Promise<unknown> {
    return this.calls.get(key)?.value;
  }
  async putCallResult(key: string, result: unknown, owner?: string): Promise<void> {
    stamp(this.calls, key, result, owner, this.now());
  }
  describe(): string {
    return 'memory';
  }
  async check(): Promise<void> {}
  async close(): Promise<void> {
    await this.tokens?.close();
  }

  async stats(): Promise<StoreStats> {
    const all = [...this.entries.values(), ...this.calls.values()];
    const owners = new Set(all.flatMap((s) => [...s.owners]));
    return {
      entries: this.entries.size,
      entryBytes: sum([...this.entries.values()].map((s) => entryText(s.value).length)),
      calls: [...this.calls.keys()].filter((k) => !isFleetRecord(k)).length,
      callBytes: sum([...this.calls].filter(([k]) => !isFleetRecord(k)).map(([, s]) => entryText(s.value).length)),
      owners: owners.size,
      oldestMs: all.length ? Math.min(...all.map((s) => s.atMs)) : undefined,
    };
  }

  async collect(plan: CollectPlan): Promise<CollectReport> {
    const owners = new Set([...this.entries.values(), ...this.calls.values()].flatMap((s) => [...s.owners]));
    const dead = new Set<string>();
    for (const owner of owners) if (!(await plan.isLive(owner))) dead.add(owner);
    const report: CollectReport = { owners: owners.size, deadOwners: dead.size, entriesDeleted: 0, callsDeleted: 0, bytesFreed: 0 };
    const sweep = <T>(map: Map<string, Stamped<T>>, counter: 'entriesDeleted' | 'callsDeleted') => {
      for (const [key, s] of [...map]) {
        if (counter === 'callsDeleted' && isFleetRecord(key)) continue;
        const live = [...s.owners].some((o) => !dead.has(o));
        if (live || s.atMs >= plan.keepNewerThanMs) continue;
        report[counter] += 1;
        report.bytesFreed += entryText(s.value).length;
        if (!plan.dryRun) map.delete(key);
      }
    };
    sweep(this.entries, 'entriesDeleted');
    sweep(this.calls, 'callsDeleted');
    return report;
  }
}

function stamp<T>(map: Map<string, Stamped<T>>, key: string, value: T, owner: string | undefined, atMs: number): void {
  const existing = map.get(key);
  if (existing) {
    if (owner) existing.owners.add(owner);
    return;
  }
  map.set(key, { value, owners: new Set(owner ? [owner] : []), atMs });
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
