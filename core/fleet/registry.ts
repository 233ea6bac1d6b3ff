import { contentRef } from '../hash/refs';

/**
 * What makes two workers interchangeable for a run: the tools and evaluators they register, each
 * by name and by a hash of its definition (a tool's spec — description, argument schema, flags —
 * and its author's `version`; an evaluator's flags and `version`). A worker's *registry* is the
 * sorted list of its entries; its *fingerprint* is their hash. Workers with the same fingerprint
 * run the same tools under the same names; a run is bound to one fingerprint and its tools and
 * evaluators run only on workers that have it (on the task queue `<queue>@<fingerprint>`).
 */
export interface RegistryEntry {
  kind: 'tool' | 'evaluator';
  name: string;
  /** Hash of the definition (16 hex characters). */
  hash: string;
}

export interface RegistryDescription {
  /** Hash of the sorted entries (16 hex characters). */
  fingerprint: string;
  entries: RegistryEntry[];
}

/** Hashes are cut to 64 bits: enough to tell definitions apart, short enough to read in a queue name. */
const HASH_CHARS = 16;

/**
 * A definition's hash: of whatever JSON describes it.
 *
 * @example
 * definitionHash({ spec, version: null }) // 'a1b2c3d4e5f60718'
 */
export function definitionHash(definition: unknown): string {
  return contentRef(definition).slice(0, HASH_CHARS);
}

/**
 * A registry from its entries, sorted (kind, then name) so the order workers list their tools
 * in does not matter.
 *
 * @example
 * describeRegistry([{ kind: 'tool', name: 'multiply', hash: 'a1b2…' }]).fingerprint // '3fa9c2d1e0b4a7f2'
 */
export function describeRegistry(entries: RegistryEntry[]): RegistryDescription {
  const sorted = [...entries].sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind < b.kind ? -1 : 1));
  return { fingerprint: definitionHash(sorted.map((e) => [e.kind, e.name, e.hash])), entries: sorted };
}

/**
 * The task queue that only workers with registry `fingerprint` poll, beside `queue`.
 *
 * @example
 * registryQueue('grove', '3fa9c2d1e0b4a7f2') // 'grove@3fa9c2d1e0b4a7f2'
 */
export function registryQueue(queue: string, fingerprint: string): string {
  return `${queue}@${fingerprint}`;
}

const IDENTITY_MARK = ' grove:';

/**
 * A worker identity that carries its registry's fingerprint, so anyone who can describe a task
 * queue (Temporal lists its pollers by identity) can tell which registry each worker has.
 *
 * @example
 * identityWithRegistry('4242@host-a', '3fa9c2d1e0b4a7f2') // '4242@host-a grove:3fa9c2d1e0b4a7f2'
 */
export function identityWithRegistry(identity: string, fingerprint: string): string {
  return `${identity.split(IDENTITY_MARK)[0]}${IDENTITY_MARK}${fingerprint}`;
}

/**
 * The worker and its registry fingerprint, from an identity (no fingerprint: not a grove worker
 * with a registry — another SDK's worker, or an older grove).
 *
 * @example
 * parseIdentity('4242@host-a grove:3fa9c2d1e0b4a7f2') // { worker: '4242@host-a', fingerprint: '3fa9c2d1e0b4a7f2' }
 */
export function parseIdentity(identity: string): { worker: string; fingerprint?: string } {
  const match = /^(.*) grove:([0-9a-f]{16})$/.exec(identity);
  return match ? { worker: match[1]!, fingerprint: match[2]! } : { worker: identity };
}

/** One way two registries differ. */
export interface RegistryDifference {
  kind: RegistryEntry['kind'];
  name: string;
  /** The hash on each side; undefined where that side lacks the entry. */
  a?: string;
  b?: string;
}

/**
 * How registries `a` and `b` differ, entry by entry (only the `names` given, when given: what a
 * run uses). Empty when they agree.
 *
 * @example
 * registryDifferences(mine, theirs, new Set(['tool multiply']))
 * // [{ kind: 'tool', name: 'multiply', a: '1a2b3c4d5e6f7081', b: '99aa88bb77cc66dd' }]
 */
export function registryDifferences(a: RegistryEntry[], b: RegistryEntry[], names?: Set<string>): RegistryDifference[] {
  const key = (e: { kind: string; name: string }) => `${e.kind} ${e.name}`;
  const left = new Map(a.map((e) => [key(e), e]));
  const right = new Map(b.map((e) => [key(e), e]));
  const out: RegistryDifference[] = [];
  for (const k of [...new Set([...left.keys(), ...right.keys()])].sort()) {
    if (names && !names.has(k)) continue;
    const [l, r] = [left.get(k), right.get(k)];
    if (l?.hash === r?.hash) continue;
    const { kind, name } = (l ?? r)!;
    out.push({ kind, name, ...(l ? { a: l.hash } : {}), ...(r ? { b: r.hash } : {}) });
  }
  return out;
}

/**
 * Differences in words, with each side named: `tool multiply differs (1a2b3c4d on A, 99aa88bb
 * on B); evaluator checker only on A`.
 *
 * @example
 * formatDifferences(diffs, 'worker 4242@host-a', 'worker 77@host-b')
 */
export function formatDifferences(diffs: RegistryDifference[], a: string, b: string): string {
  return diffs
    .map((d) =>
      d.a && d.b
        ? `${d.kind} ${d.name} differs (${d.a.slice(0, 8)} on ${a}, ${d.b.slice(0, 8)} on ${b})`
        : `${d.kind} ${d.name} only on ${d.a ? a : b}`,
    )
    .join('; ');
}

/** The entry keys (`tool multiply`, `evaluator checker`) a run names. */
export function entryKeys(names: { tools?: string[]; evaluators?: string[] }): Set<string> {
  return new Set([...(names.tools ?? []).map((n) => `tool ${n}`), ...(names.evaluators ?? []).map((n) => `evaluator ${n}`)]);
}
