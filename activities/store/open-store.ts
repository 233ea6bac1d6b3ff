import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groveHome } from '../../runtime/paths';
import { CachedStore } from './cached-store';
import { FileMessageStore } from './file-message-store';
import { MemoryMessageStore } from './memory-message-store';
import type { MessageStore } from './message-store';
import { PostgresMessageStore } from './postgres-message-store';
import { redactUrl, StoreConfigError } from './store-errors';

export interface StoreSettings {
  /**
   * Where the store of record is: a folder path or `file:` URL (one host), `postgres://…` /
   * `postgresql://…` (every host), or `memory:` (one process; tests).
   */
  url: string;
  /** With a networked store: a local folder that caches entries on this host (optional). */
  cacheDir?: string;
}

/**
 * The store settings from the environment: `GROVE_STORE_URL`, else `GROVE_STORE_DIR` (a folder),
 * else the folder `$GROVE_HOME/store`; `GROVE_STORE_CACHE_DIR` for a local cache in front of a
 * networked store.
 *
 * @example
 * const store = openStore(storeSettingsFromEnv());
 */
export function storeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreSettings {
  const url = env.GROVE_STORE_URL || env.GROVE_STORE_DIR || join(groveHome(env), 'store');
  return { url, cacheDir: env.GROVE_STORE_CACHE_DIR || undefined };
}

/**
 * Opens the store a URL names. Nothing is contacted yet: call `check()` (workers do at start)
 * to fail early with a clear line.
 *
 * @example
 * const store = openStore({ url: 'postgres://grove:secret@db:5432/grove', cacheDir: '/var/cache/grove' });
 * await store.check();
 */
export function openStore(settings: StoreSettings | string): MessageStore {
  const { url, cacheDir } = typeof settings === 'string' ? { url: settings, cacheDir: undefined } : settings;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') {
    return new CachedStore(new PostgresMessageStore(url), { local: cacheDir ? new FileMessageStore(resolve(cacheDir)) : undefined });
  }
  if (scheme === 'memory') return new MemoryMessageStore();
  if (scheme === 'file') return new CachedStore(new FileMessageStore(fileURLToPath(url)));
  if (scheme === undefined || /^[a-z]$/i.test(scheme)) return new CachedStore(new FileMessageStore(resolve(url)));
  throw new StoreConfigError(
    `GROVE_STORE_URL=${redactUrl(url)}: unknown store "${scheme}:" (use a folder path, file:///path, or postgres://user:password@host:5432/db)`,
  );
}
