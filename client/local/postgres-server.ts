import { spawnSync } from 'node:child_process';
import { spawnGuarded } from './guarded-spawn';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { requireEngine } from '../../runtime/optional-engine';

export interface LocalPostgresOptions {
  /** The cluster's folder (created with `initdb` on first use; reused afterwards). */
  dir: string;
  port: number;
  log?: (line: string) => void;
}

export interface LocalPostgres {
  /** `postgres://grove:<password>@127.0.0.1:<port>/grove` — give it to workers as GROVE_STORE_URL. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export class PostgresNotFoundError extends Error {
  override name = 'PostgresNotFoundError';
}

/**
 * Starts a real PostgreSQL server on loopback from the machine's own binaries (Debian's
 * `postgresql` package: /usr/lib/postgresql/<version>/bin, or `initdb`/`postgres` on PATH): for
 * the test suite's networked store and `grove dev --store postgres`. The first start creates the
 * cluster in `dir` with a database and user `grove` and a random password (kept in
 * `<dir>/password`, readable only by its owner). PostgreSQL refuses to run as root, so as root
 * the server runs as the `postgres` system user (created by the Debian package).
 *
 * @example
 * const pg = await startLocalPostgres({ dir: '.grove/postgres', port: 5433 });
 * process.env.GROVE_STORE_URL = pg.url;
 */
export async function startLocalPostgres(opts: LocalPostgresOptions): Promise<LocalPostgres> {
  const log = opts.log ?? (() => {});
  const { Client } = requireEngine<typeof import('pg')>('pg'); // before a server is started for nothing
  const bin = postgresBinDir();
  const user = process.getuid?.() === 0 ? systemUser('postgres') : undefined;
  const data = join(opts.dir, 'data');
  const passwordFile = join(opts.dir, 'password');
  mkdirSync(dirname(opts.dir), { recursive: true });
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const password = randomBytes(18).toString('base64url');
    writeFileSync(passwordFile, password, { mode: 0o600 });
    mkdirSync(data, { recursive: true, mode: 0o700 });
    if (user) {
      chownSync(opts.dir, user.uid, user.gid);
      chownSync(data, user.uid, user.gid);
      chownSync(passwordFile, user.uid, user.gid);
    }
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'grove', '--auth=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--no-instructions'],
      { encoding: 'utf8', ...(user ?? {}) },
    );
    if (init.status !== 0) throw new Error(`initdb failed in ${data}: ${(init.stderr || init.stdout || '').trim().split('\n').slice(-3).join(' | ')}`);
    log(`postgres: created a cluster in ${data}`);
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  // Guarded: PostgreSQL never outlives this process, whatever ends it.
  const server = spawnGuarded(join(bin, 'postgres'), ['-D', data, '-p', String(opts.port), '-h', '127.0.0.1', '-k', data, '-c', 'log_min_messages=warning'], {
    ...(user ?? {}),
    stopSignal: 'INT', // PostgreSQL's "fast" shutdown: ends sessions, writes a checkpoint
  });
  let stderr = '';
  server.child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));

  const base = `postgres://grove:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 30_000;
  let lastError = 'no answer';
  for (;;) {
    if (exitCode !== undefined) throw new Error(`PostgreSQL on 127.0.0.1:${opts.port} exited (${exitCode}): ${tail(stderr) || lastError}`);
    if (await ensureDatabase(Client, `${base}/postgres`).catch((err: Error) => ((lastError = err.message), false))) break;
    if (Date.now() > deadline) {
      await server.stop(1000);
      throw new Error(`PostgreSQL on 127.0.0.1:${opts.port} did not start within 30 s: ${lastError}${stderr ? ` (${tail(stderr)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`postgres: ready on 127.0.0.1:${opts.port} (cluster ${data})`);
  return {
    url: `${base}/grove`,
    pid: server.child.pid ?? -1,
    stop: () => server.stop(),
  };
}

/** Connects to the maintenance database and creates `grove` if it is missing. */
async function ensureDatabase(Client: typeof import('pg').Client, maintenanceUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: maintenanceUrl, connectionTimeoutMillis: 1000 });
  await client.connect();
  try {
    const { rowCount } = await client.query(`select 1 from pg_database where datname = 'grove'`);
    if (!rowCount) await client.query('create database grove');
    return true;
  } finally {
    await client.end();
  }
}

/** The folder holding `initdb` and `postgres`: `GROVE_POSTGRES_BIN`, Debian's newest version, or PATH. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GROVE_POSTGRES_BIN) return env.GROVE_POSTGRES_BIN;
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return join(debian, versions[0], 'bin');
  const onPath = (env.PATH ?? '').split(delimiter).find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
  if (onPath) return onPath;
  throw new PostgresNotFoundError(
    'PostgreSQL server binaries not found (looked in /usr/lib/postgresql/*/bin and PATH): install them (apt-get install postgresql) or set GROVE_STORE_URL to a server you run',
  );
}

function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new PostgresNotFoundError(`PostgreSQL does not run as root and there is no "${name}" system user (apt-get install postgresql creates it)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}
