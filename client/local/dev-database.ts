import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The port whose database keeps the name it always had, so an existing `.grove/temporal.db` keeps its runs. */
const DEFAULT_PORT = 7233;

/**
 * The SQLite file of the local dev server on `port`: one database per port, so two dev servers
 * started in one folder on different ports (`GROVE_TEMPORAL_PORT`) never write one file — each
 * lists only its own runs. The default port keeps the historical name `temporal.db`.
 *
 * @example
 * devDatabaseFile('.grove', 7233) // '.grove/temporal.db'
 * devDatabaseFile('.grove', 7300) // '.grove/temporal-7300.db'
 */
export function devDatabaseFile(home: string, port: number): string {
  return join(home, port === DEFAULT_PORT ? 'temporal.db' : `temporal-${port}.db`);
}

/** A claim on a dev-server database; `release` gives it up (when the server it was for stops). */
export interface DatabaseClaim {
  release(): void;
}

/**
 * Claims `file` for a dev server this process starts, or refuses in one line when a live grove
 * process holds it: two Temporal servers must never write one SQLite file (their runs would mix,
 * and SQLite's locks do not make two servers' caches agree). The claim is a `<file>.owner` file
 * naming the holder's pid and port; one whose process is gone is stale and taken over. The same
 * process may claim again (a supervised restart on the same database).
 *
 * @example
 * const claim = claimDevDatabase('.grove/temporal.db', 7233);
 * // ... start the server, and when it stops for good:
 * claim.release();
 */
export function claimDevDatabase(file: string, port: number): DatabaseClaim {
  const ownerFile = `${file}.owner`;
  const mine = JSON.stringify({ pid: process.pid, port });
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(ownerFile, mine, { flag: 'wx' });
      return release(ownerFile);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(ownerFile);
    if (holder && holder.pid === process.pid) return release(ownerFile);
    if (holder && isAlive(holder.pid)) {
      throw new Error(
        `the dev-server database ${file} is held by grove process ${holder.pid} (its server is on port ${holder.port}); stop that one, or give this one another port (GROVE_TEMPORAL_PORT) or folder (GROVE_HOME)`,
      );
    }
    unlinkSync(ownerFile); // stale: its process is gone
  }
  throw new Error(`cannot claim the dev-server database ${file}: another process keeps claiming it`);
}

function release(ownerFile: string): DatabaseClaim {
  return {
    release() {
      if (readHolder(ownerFile)?.pid === process.pid) unlinkSync(ownerFile);
    },
  };
}

function readHolder(ownerFile: string): { pid: number; port: number } | undefined {
  try {
    const holder = JSON.parse(readFileSync(ownerFile, 'utf8')) as { pid?: unknown; port?: unknown };
    return typeof holder.pid === 'number' ? { pid: holder.pid, port: Number(holder.port) } : undefined;
  } catch {
    return undefined; // unreadable or half-written: treated as stale
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
