import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PathRecord, Ref } from '../../core/hash/refs';
import type { Message } from '../../core/schemas/messages';
import type { MessageStore } from './message-store';

/**
 * The default store: one JSON file per entry under a folder shared by the workers of a host
 * (`<dir>/<first two hex>/<ref>.json`). Writes go to a temporary name and are renamed into
 * place, so a reader never sees half a file even when two workers write the same entry.
 * A small in-memory cache keeps hot paths (the tree's upper levels) off the disk.
 *
 * @example
 * const store = new FileMessageStore('.grove/store');
 */
export class FileMessageStore implements MessageStore {
  private readonly cache = new Map<Ref, unknown>();
  private readonly created = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly cacheLimit = 20_000,
  ) {}

  putMessages(entries: Record<Ref, Message>): Promise<void> {
    return this.putAll(entries);
  }
  putPaths(entries: Record<Ref, PathRecord>): Promise<void> {
    return this.putAll(entries);
  }
  getMessage(ref: Ref): Promise<Message | undefined> {
    return this.get(ref) as Promise<Message | undefined>;
  }
  getPath(ref: Ref): Promise<PathRecord | undefined> {
    return this.get(ref) as Promise<PathRecord | undefined>;
  }
  describe(): string {
    return `folder ${this.dir}`;
  }

  private async putAll(entries: Record<Ref, unknown>): Promise<void> {
    await Promise.all(
      Object.entries(entries).map(async ([ref, value]) => {
        if (this.cache.has(ref)) return;
        const shard = join(this.dir, ref.slice(0, 2));
        if (!this.created.has(shard)) {
          await mkdir(shard, { recursive: true });
          this.created.add(shard);
        }
        const file = join(shard, `${ref}.json`);
        const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        await writeFile(tmp, JSON.stringify(value));
        await rename(tmp, file);
        this.remember(ref, value);
      }),
    );
  }

  private async get(ref: Ref): Promise<unknown> {
    if (this.cache.has(ref)) return this.cache.get(ref);
    try {
      const value = JSON.parse(await readFile(join(this.dir, ref.slice(0, 2), `${ref}.json`), 'utf8'));
      this.remember(ref, value);
      return value;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  private remember(ref: Ref, value: unknown): void {
    if (this.cache.size >= this.cacheLimit) this.cache.delete(this.cache.keys().next().value as Ref);
    this.cache.set(ref, value);
  }
}
