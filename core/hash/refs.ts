import type { Message } from '../schemas/messages';
import { canonicalJson } from './canonical-json';
import { sha256Hex } from './sha256';

/**
 * Content addresses for the message store (DESIGN.md, "Data flow and history size").
 *
 * A conversation is never sent into an activity. Instead every path through a search tree is
 * a chain of {@link PathRecord}s — "my parent's conversation, keep its first `keep` messages,
 * then add these messages" — addressed by the hash of the record. An activity receives one
 * 32-hex-character {@link Ref} whatever the depth, and rebuilds the conversation from the store.
 * Workflow and activities compute the same refs from the same data, so the workflow never has
 * to trust an activity about what a ref means.
 */
export type Ref = string;

/** A path step: the parent path (null at the root), how much of it to keep, and the added messages. */
export interface PathRecord {
  parent: Ref | null;
  keep?: number;
  add: Ref[];
}

const REF_LENGTH = 32; // 128 bits: collisions are not a practical concern, and refs stay short in history

export function contentRef(value: unknown): Ref {
  return sha256Hex(canonicalJson(value)).slice(0, REF_LENGTH);
}

/**
 * @example
 * messageRef({ role: 'user', content: 'Say hi!' }) // a stable 32-char hex string
 */
export function messageRef(message: Message): Ref {
  return contentRef({ m: message });
}

export function pathRef(record: PathRecord): Ref {
  return contentRef({ p: record.parent, k: record.keep, a: record.add });
}

export function isRef(value: unknown): value is Ref {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value);
}
