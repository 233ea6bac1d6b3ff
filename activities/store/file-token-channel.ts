import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentRef } from '../../core/hash/refs';
import { capped, follow, isNewer, isVisible, streamKey, TOKEN_LINGER_MS, TOKEN_STALE_MS, Wakeups, type TokenChannel, type TokenStream } from './token-channel';

/** How often a reader looks again when nothing told it of a change (file-system events can be missed). */
const POLL_MS = 250;
/** How often a publisher removes what dead workers left (at most). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The token channel of the folder store: one small JSON file per streamed choice under
 * `<store>/streams/<run>/`, replaced atomically (written aside, renamed into place) at each
 * publication, so a reader in any process on the host reads a whole one (an earlier publication
 * never replaces a later one; two workers racing on one stream — a retried call beside the
 * zombie of its first attempt — may, for a moment). Readers are woken by
 * file-system events on the run's folder and look again every 250 ms regardless. A file is
 * removed `TOKEN_LINGER_MS` after its call ends; what a killed worker left is removed by the
 * next publisher's sweep once `TOKEN_STALE_MS` old (and never shown as streaming past that).
 *
 * @example
 * const tokens = new FileTokenChannel('.grove/store/streams');
 */
export class FileTokenChannel implements TokenChannel {
  private readonly wakeups = new Wakeups();
  private readonly closing = new AbortController();
  private readonly watchers = new Map<string, { watcher: FSWatcher | undefined; users: number }>();
  /** Files read before, by path: re-read only when they change. */
  private readonly cache = new Map<string, { ino: number; mtimeMs: number; size: number; stream: TokenStream | undefined }>();
  private lastSweep = 0;

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(stream: TokenStream): Promise<void> {
    const folder = this.folder(stream.workflowId);
    const file = join(folder, `${contentRef(streamKey(stream))}.json`);
    if (!isNewer(stream, await this.read(file))) return; // an earlier publication never replaces a later one
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await mkdir(folder, { recursive: true });
    try {
      await writeFile(tmp, JSON.stringify(capped(stream)));
      await rename(tmp, file);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    if (stream.state !== 'streaming') {
      setTimeout(() => void this.removeIfEnded(file, stream), TOKEN_LINGER_MS).unref();
    }
    if (this.now() - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = this.now();
      void this.sweep().catch(() => {});
    }
  }

  async current(workflowId: string): Promise<TokenStream[]> {
    const folder = this.folder(workflowId);
    const names = await readdir(folder).catch(() => [] as string[]);
    const now = this.now();
    const out: TokenStream[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const stream = await this.read(join(folder, name));
      if (stream && stream.workflowId === workflowId && isVisible(stream, now)) out.push(stream);
    }
    return out;
  }

  subscribe(workflowId: string, signal?: AbortSignal): AsyncIterable<TokenStream> {
    const folder = this.folder(workflowId);
    const self = this;
    return (async function* () {
      self.watchFolder(workflowId, folder);
      try {
        yield* follow(() => self.current(workflowId), (s) => self.wakeups.wait(workflowId, POLL_MS, s), signal, self.closing.signal);
      } finally {
        self.unwatchFolder(folder);
      }
    })();
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const { watcher } of this.watchers.values()) watcher?.close();
    this.watchers.clear();
  }

  /** Removes streams not written for `TOKEN_STALE_MS`, and run folders left empty. */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const run of await readdir(this.dir).catch(() => [] as string[])) {
      const folder = join(this.dir, run);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const info = await stat(join(folder, name)).catch(() => undefined);
        if (info && now - info.mtimeMs >= TOKEN_STALE_MS) await unlink(join(folder, name)).catch(() => {});
      }
      const info = await stat(folder).catch(() => undefined);
      if (info && now - info.mtimeMs >= TOKEN_STALE_MS) await rmdir(folder).catch(() => {}); // only an empty folder goes
    }
  }

  private folder(workflowId: string): string {
    return join(this.dir, contentRef(workflowId));
  }

  private async read(file: string): Promise<TokenStream | undefined> {
    const info = await stat(file).catch(() => undefined);
    if (!info) return undefined;
    const known = this.cache.get(file);
    if (known && known.ino === info.ino && known.mtimeMs === info.mtimeMs && known.size === info.size) return known.stream; // each publication is a new file (renamed into place)
    const stream = await readFile(file, 'utf8').then((t) => JSON.parse(t) as TokenStream, () => undefined);
    this.cache.set(file, { ino: info.ino, mtimeMs: info.mtimeMs, size: info.size, stream });
    if (this.cache.size > 2_000) this.cache.delete(this.cache.keys().next().value!);
    return stream;
  }

  /** Removes an ended stream's file unless a later publication replaced it. */
  private async removeIfEnded(file: string, stream: TokenStream): Promise<void> {
    const now = await readFile(file, 'utf8').then((t) => JSON.parse(t) as TokenStream, () => undefined);
    if (now && now.attempt === stream.attempt && now.seq === stream.seq) await unlink(file).catch(() => {});
  }

  private watchFolder(workflowId: string, folder: string): void {
    const known = this.watchers.get(folder);
    if (known) {
      known.users += 1;
      return;
    }
    const entry: { watcher: FSWatcher | undefined; users: number } = { watcher: undefined, users: 1 };
    this.watchers.set(folder, entry);
    void mkdir(folder, { recursive: true })
      .then(() => {
        if (this.watchers.get(folder) !== entry || this.closing.signal.aborted) return;
        entry.watcher = watch(folder, () => this.wakeups.wake(workflowId));
        entry.watcher.on('error', () => entry.watcher?.close()); // polling goes on
      })
      .catch(() => {}); // no events: the poll alone
  }

  private unwatchFolder(folder: string): void {
    const entry = this.watchers.get(folder);
    if (!entry || --entry.users > 0) return;
    entry.watcher?.close();
    this.watchers.delete(folder);
  }
}
