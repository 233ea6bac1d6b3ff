import type { PathRecord, Ref } from '../../core/hash/refs';
import type { Message } from '../../core/schemas/messages';
import type { TokenChannel } from './token-channel';

/** What the store holds under a ref: a message or a path record (both content-addressed). */
export type StoreEntry = Message | PathRecord;

/**
 * Keys of records that describe the fleet, not a call (a worker's published registry): kept
 * beside call results, but neither counted as calls by `stats` nor collected by `collect` — a
 * count of calls must be a count of calls.
 */
export const FLEET_RECORD_PREFIX = 'grove-registry/';

/** Whether a call-result key is a fleet record rather than a finished call. */
export function isFleetRecord(key: string): boolean {
  return key.startsWith(FLEET_RECORD_PREFIX);
}

export interface StoreStats {
  /** Messages and path records. */
  entries: number;
  entryBytes: number;
  /** Recorded results of finished calls (model calls, tool runs, evaluations). */
  calls: number;
  callBytes: number;
  /** Workflow ids that own entries or calls. */
  owners: number;
  /** When the oldest entry or call was written (ms since the epoch). */
  oldestMs?: number;
}

/** What a garbage collection may delete, decided by the caller (see `collectGarbage`). */
export interface CollectPlan {
  /** Whether a workflow id's run still needs its entries (running, or closed within the retention). */
  isLive(owner: string): Promise<boolean>;
  /** Entries and calls written after this moment (ms since the epoch) are kept whoever owns them. */
  keepNewerThanMs: number;
  /** Count what would be deleted, delete nothing. */
  dryRun?: boolean;
}

export interface CollectReport {
  owners: number;
  deadOwners: number;
  entriesDeleted: number;
  callsDeleted: number;
  bytesFreed: number;
}

/**
 * Content-addressed storage of messages and path records (DESIGN.md, "Data flow"), and the
 * recorded results of finished calls. Entries are immutable: a ref always names the same
 * content, so writes are idempotent, any worker may write an entry twice, and any cache in
 * front of a store is always coherent.
 *
 * Every write names its `owner`, the workflow id of the run that needs it, so retention can
 * delete what belongs to runs closed long ago (`grove store gc`) and nothing a live run needs.
 *
 * Backends: a folder (`FileMessageStore`, one host), PostgreSQL (`PostgresMessageStore`, every
 * host), memory (`MemoryMessageStore`, tests and in-process runs); `openStore(url)` picks one.
 */
export interface MessageStore {
  put(entries: Record<Ref, StoreEntry>, owner?: string): Promise<void>;
  get(ref: Ref): Promise<StoreEntry | undefined>;
  /** The recorded result of a finished call (see `callOnce`), by call key. */
  getCallResult(key: string): Promise<unknown>;
  putCallResult(key: string, result: unknown, owner?: string): Promise<void>;
  /** A short description for logs, with any password redacted, e.g. "folder .grove/store". */
  describe(): string;
  /** Fails with `StoreUnavailableError` unless the store can be reached and written (worker start). */
  check(): Promise<void>;
  stats(): Promise<StoreStats>;
  collect(plan: CollectPlan): Promise<CollectReport>;
  close(): Promise<void>;
  /**
   * Where answers are kept while they stream (docs/streaming.md), in this store's backend; a
   * store without one (a store of your own) streams nothing, and calls' results are the same.
   */
  tokenChannel?(): TokenChannel | undefined;
}

/** Entries as the store writes them: JSON text, with its size for statistics. */
export function entryText(value: unknown): string {
  return JSON.stringify(value);
}
