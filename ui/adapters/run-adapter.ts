import type { Ref } from '../../core/hash/refs';
import type { StoreEntry } from '../../activities/store/message-store';
import type { Facts, NodeParts, ViewTree } from '../model/view-tree';

/** How an adapter reads a run: by query while it works (or when it has no result), else from its result. */
export interface RunReader {
  /** True while the run works. */
  live: boolean;
  /** The run's input (its first workflow argument), when it could be read. */
  input: unknown;
  /** The finished run's result; undefined for a run that did not complete. */
  result(): Promise<unknown>;
  /** A query of the run (a worker must be up to answer it). */
  query(name: string): Promise<unknown>;
  /** The message store the run's workers write, when the reader has it (node labels read their words from it). */
  store?: StoreReader;
}

/** The read side of the message store: all the viewer ever does with it. */
export interface StoreReader {
  get(ref: Ref): Promise<StoreEntry | undefined>;
  describe(): string;
}

/** What an adapter makes of a run at one moment: its tree in the viewer's shape, and how to explain each node. */
export interface RunSnapshot {
  tree?: ViewTree;
  facts: Facts;
  note?: string;
  /** The parts of nodes (`ids`): facts, texts and the messages each added. */
  parts(ids: number[], store: StoreReader): Promise<Map<number, NodeParts>>;
}

/**
 * Turns one kind of run into the viewer's generic tree. Adding a kind (e.g. a session's message
 * tree with abandoned branches) is one more adapter in `ADAPTERS`: read the run with `reader`,
 * map its nodes to `ViewNode`s, and say what each node added to the conversation.
 */
export interface RunAdapter {
  /** Whether this adapter draws runs of this GroveKind (`agent:mcts`, `airetry`, ...). */
  matches(kind: string): boolean;
  snapshot(reader: RunReader): Promise<RunSnapshot>;
}

/** `0.83`, or '' for a missing number. */
export function fixed(x: number | undefined, digits = 2): string {
  return x === undefined || !Number.isFinite(x) ? '' : x.toFixed(digits);
}

/** Facts without empty values. */
export function facts(pairs: [string, string | number | undefined][]): Facts {
  return pairs.filter((p): p is [string, string | number] => p[1] !== undefined && p[1] !== '').map(([k, v]) => [k, String(v)]);
}
