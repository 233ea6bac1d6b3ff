import { randomBytes } from 'node:crypto';
import { appendFile, link, mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { contentRef, type Ref } from '../../core/hash/refs';
import type { CollectPlan, CollectReport, MessageStore, StoreEntry, StoreStats } from './message-store';
import { entryText, isFleetRecord } from './message-store';
import { StoreUnavailableError } from './store-errors';
import { FileTokenChannel } from './file-token-channel';
import type { TokenChannel } from './token-channel';

/**
 * The single-host store: one JSON file per entry under a folder shared by the workers of a host
 * (`<dir>/<first two hex>/<ref>.json`), recorded call results under `<dir>/calls/`, and one
 * manifest per owning workflow under `<dir>/owners/` (the refs it wrote, for retention).
 *
 * Writes are durable and atomic: a temporary file is written and fsynced, linked into place
 * (first writer wins) and the folder is fsynced, so a reader never sees half a file (even when
 * two workers write the same entry) and a power cut loses no acknowledged write. Manifests are appended without fsync:
 * losing a line only makes an entry look unowned, and unowned entries are kept for the whole
 * retention period (and a lost entry is recovered from the run's history).
 *
 * @example
 * const store = new FileMessageStore('.grove/store');
 */
export class FileMessageStore implements MessageStore {
  private readonly created = new Set<string>();
  /** `owner|item` pairs this process already wrote to a manifest. */
  private readonly linked = new Set<string>();
  private tokens?: FileTokenChannel;

  constructor(readonly dir: string) {}

  /** Answers while they stream: a file each under `<dir>/streams/`, readable by every process of the host. */
  tokenChannel(): TokenChannel {
    return (this.tokens ??= new FileTokenChannel(join(this.dir, 'streams')));
  }

  async put(entries: Record<Ref, StoreEntry>, owner?: string): Promise<void> {
    const refs = Object.keys(entries);
    if (refs.length === 0) return;
    const folders = new Set<string>();
    await Promise.all(
      refs.map(async (ref) => {
        const folder = join(this.dir, ref.slice(0, 2));
        if (await this.writeIfAbsent(folder, `${ref}.json`, entries[ref])) folders.add(folder);
      }),
    );
    await Promise.all([...folders].map(syncFolder));
    await this.link(owner, refs);
  }

  async get(ref: Ref): Promise<StoreEntry | undefined> {
    return (await readJson(join(this.dir, ref.slice(0, 2), `${ref}.json`))) as StoreEntry | undefined;
  }

  async getCallResult(key: string): Promise<unknown> {
    const record = (await readJson(this.callFile(key))) as { result: unknown } | undefined;
    return record?.result;
  }

  async putCallResult(key: string, result: unknown, owner?: string): Promise<void> {
    const name = callName(key);
    if (await this.writeIfAbsent(join(this.dir, 'calls'), name, { key, result })) await syncFolder(join(this.dir, 'calls'));
    await this.link(owner, [`calls/${name}`]);
  }

  describe(): string {
    return `folder ${this.dir}`;
  }

  async check(): Promise<void> {
    try {
      await this.write(join(this.dir, 'probe'), `${process.pid}.json`, { ok: true });
      await unlink(join(this.dir, 'probe', `${process.pid}.json`));
    } catch (err) {
      throw new StoreUnavailableError(`cannot write the message store folder ${this.dir}: ${(err as Error).message}; check that it exists and is writable (GROVE_STORE_URL)`);
    }
  }

  async close(): Promise<void> {
    await this.tokens?.close();
  }

  async stats(): Promise<StoreStats> {
    const stats: StoreStats = { entries: 0, entryBytes: 0, calls: 0, callBytes: 0, owners: (await this.manifests()).length };
    for (const file of await this.files()) {
      if (file.item.startsWith(FLEET_FILE)) continue;
      const info = await stat(file.path).catch(() => undefined);
      if (!info) continue;
      if (file.call) {
        stats.calls += 1;
        stats.callBytes += info.size;
      } else {
        stats.entries += 1;
        stats.entryBytes += info.size;
      }
      stats.oldestMs = Math.min(stats.oldestMs ?? Infinity, info.mtimeMs);
    }
    return stats;
  }

  async collect(plan: CollectPlan): Promise<CollectReport> {
    const manifests = await this.manifests();
    const live = new Set<string>();
    const dead: string[] = [];
    for (const m of manifests) {
      if (await plan.isLive(m.owner)) m.items.forEach((item) => live.add(item));
      else dead.push(m.file);
    }
    const report: CollectReport = { owners: manifests.length, deadOwners: dead.length, entriesDeleted: 0, callsDeleted: 0, bytesFreed: 0 };
    for (const file of await this.files()) {
      if (live.has(file.item) || file.item.startsWith(FLEET_FILE)) continue;
      const info = await stat(file.path).catch(() => undefined);
      if (!info || info.mtimeMs >= plan.keepNewerThanMs) continue;
      report[file.call ? 'callsDeleted' : 'entriesDeleted'] += 1;
      report.bytesFreed += info.size;
      if (!plan.dryRun) await unlink(file.path).catch(() => {});
    }
    if (!plan.dryRun) await Promise.all(dead.map((f) => unlink(f).catch(() => {})));
    return report;
  }

  private callFile(key: string): string {
    return join(this.dir, 'calls', callName(key));
  }

  /** Appends the items an owner now needs to its manifest (once per process and item). */
  private async link(owner: string | undefined, items: string[]): Promise<void> {
    if (!owner) return;
    const fresh = items.filter((item) => !this.linked.has(`${owner}|${item}`));
    if (fresh.length === 0) return;
    const folder = join(this.dir, 'owners');
    const file = join(folder, `${contentRef(owner)}.txt`);
    const header = (await stat(file).catch(() => undefined)) ? '' : `${JSON.stringify(owner)}\n`;
    await this.inFolder(folder, () => appendFile(file, `${header}${fresh.join('\n')}\n`));
    for (const item of fresh) this.linked.add(`${owner}|${item}`);
  }

  private async manifests(): Promise<{ owner: string; file: string; items: string[] }[]> {
    const folder = join(this.dir, 'owners');
    const names = await readdir(folder).catch(() => [] as string[]);
    const out = [];
    for (const name of names.filter((n) => n.endsWith('.txt'))) {
      const file = join(folder, name);
      const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
      if (lines.length === 0) continue;
      out.push({ owner: JSON.parse(lines[0]) as string, file, items: lines.slice(1) });
    }
    return out;
  }

  /** Every entry and call file: `item` is how manifests name it (`<ref>` or `calls/<name>`). */
  private async files(): Promise<{ path: string; item: string; call: boolean }[]> {
    const out = [];
    for (const sub of await readdir(this.dir).catch(() => [] as string[])) {
      const isCalls = sub === 'calls';
      if (!isCalls && !/^[0-9a-f]{2}$/.test(sub)) continue;
      for (const name of await readdir(join(this.dir, sub)).catch(() => [] as string[])) {
        if (!name.endsWith('.json')) continue;
        out.push({ path: join(this.dir, sub, name), item: isCalls ? `calls/${name}` : name.slice(0, -5), call: isCalls });
      }
    }
    return out;
  }

  /**
   * Writes unless the file exists; true when it wrote. The first writer wins, atomically (a hard
   * link of the complete temporary file, which fails if the name exists): a recorded result,
   * once read by a run, never changes.
   */
  private async writeIfAbsent(folder: string, name: string, value: unknown): Promise<boolean> {
    const file = join(folder, name);
    if (await stat(file).catch(() => undefined)) return false;
    const tmp = await this.writeTemporary(folder, name, value);
    try {
      await link(tmp, file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      await unlink(tmp).catch(() => {});
    }
  }

  /** Replaces the file atomically (probes). */
  private async write(folder: string, name: string, value: unknown): Promise<void> {
    await rename(await this.writeTemporary(folder, name, value), join(folder, name));
  }

  /** A complete, fsynced temporary file next to `name`. */
  private async writeTemporary(folder: string, name: string, value: unknown): Promise<string> {
    const tmp = join(folder, `${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await this.inFolder(folder, () => open(tmp, 'w'));
    try {
      await handle.writeFile(entryText(value));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return tmp;
  }

  /** Runs `fn` in `folder`, creating the folder first if needed (again, if someone deleted it). */
  private async inFolder<T>(folder: string, fn: () => Promise<T>): Promise<T> {
    if (!this.created.has(folder)) {
      await mkdir(folder, { recursive: true });
      this.created.add(folder);
    }
    try {
      return await fn();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(folder, { recursive: true });
      return fn();
    }
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Makes renames into `folder` durable. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Where a call result lives: a fleet record under a name that says so, a call under its key's hash. */
function callName(key: string): string {
  return isFleetRecord(key) ? `${FLEET_FILE.slice('calls/'.length)}${contentRef(key)}.json` : `${contentRef(key)}.json`;
}

const FLEET_FILE = 'calls/fleet-';
