import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentRef, type PathRecord, type Ref } from '../../core/hash/refs';
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
  getCallResult(key: string): Promise<unknown> {
    return this.read(join(this.dir, 'calls', `${contentRef(key)}.json`));
  }
  putCallResult(key: string, result: unknown): Promise<void> {
    return this.write(join(this.dir, 'calls'), `${contentRef(key)}.json`, result);
  }
  describe(): string {
    return `folder ${this.dir}`;
  }

  private async putAll(entries: Record<Ref, unknown>): Promise<void> {
    await Promise.all(
      Object.entries(entries).map(async ([ref, value]) => {
        if (this.cache.has(ref)) return;
        await this.write(join(this.dir, ref.slice(0, 2)), `${ref}.json`, value);
        this.remember(ref, value);
      }),
    );
  }

  private async write(folder: string, name: string, value: unknown): Promise<void> {
    if (!this.created.has(folder)) {
      await mkdir(folder, { recursive: true });
      this.created.add(folder);
    }
    const file = join(folder, name);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, file);
  }

  private async get(ref: Ref): Promise<unknown> {
    if (this.cache.has(ref)) return this.cache.get(ref);
    const value = await this.read(join(this.dir, ref.slice(0, 2), `${ref}.json`));
    if (value !== undefined) this.remember(ref, value);
    return value;
  }

  private async read(file: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(file, 'utf8'));
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
