import { join } from 'node:path';
import { openStore, storeSettingsFromEnv, type StoreSettings } from '../../activities/store/open-store';
import { groveHome } from '../../runtime/paths';
import { isListening } from '../temporal-server/ports';
import { startLocalPostgres } from './postgres-server';
import { readFileSync } from 'node:fs';

export type LocalStoreKind = 'folder' | 'postgres';

/**
 * The message store for `grove dev`: `GROVE_STORE_URL` when set; else the folder
 * `.grove/store`, or — with `postgres` — a local PostgreSQL server from the machine's own
 * binaries, its cluster in `.grove/postgres` (port `GROVE_POSTGRES_PORT`, default 5433), reused
 * when it already runs. Checked before it is returned.
 *
 * @example
 * const { settings, stop } = await ensureStore('postgres', { log: console.log });
 */
export async function ensureStore(kind: LocalStoreKind, opts: { log: (line: string) => void }): Promise<{ settings: StoreSettings; stop(): Promise<void> }> {
  const fromEnv = storeSettingsFromEnv();
  let settings = fromEnv;
  let stop = async () => {};
  if (!process.env.GROVE_STORE_URL && kind === 'postgres') {
    const dir = join(groveHome(), 'postgres');
    const port = Number(process.env.GROVE_POSTGRES_PORT ?? 5433);
    if (await isListening('127.0.0.1', port)) {
      const password = readFileSync(join(dir, 'password'), 'utf8').trim();
      settings = { url: `postgres://grove:${encodeURIComponent(password)}@127.0.0.1:${port}/grove` };
    } else {
      const server = await startLocalPostgres({ dir, port, log: opts.log });
      settings = { url: server.url };
      stop = () => server.stop();
    }
  }
  const store = openStore(settings);
  try {
    await store.check();
    opts.log(`store: ${store.describe()}`);
  } finally {
    await store.close();
  }
  return { settings, stop };
}
