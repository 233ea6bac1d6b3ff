import type { ConnectionOptions } from 'node:tls';
import type { Pool } from 'pg';
import { requireEngine } from '../../runtime/optional-engine';
import type { Ref } from '../../core/hash/refs';
import type { CollectPlan, CollectReport, MessageStore, StoreEntry, StoreStats } from './message-store';
import { entryText, FLEET_RECORD_PREFIX } from './message-store';
import { redactUrl, StoreUnavailableError } from './store-errors';
import { PostgresTokenChannel } from './postgres-token-channel';
import type { TokenChannel } from './token-channel';

/** Tables are created on first use; an advisory lock keeps two workers starting at once from racing. */
const SCHEMA = `
create table if not exists grove_entries (
  ref text primary key,
  body text not null,
  bytes integer not null,
  created_at timestamptz not null default now()
);
create table if not exists grove_owners (
  owner text not null,
  ref text not null,
  primary key (owner, ref)
);
create index if not exists grove_owners_ref on grove_owners (ref);
create table if not exists grove_calls (
  key text primary key,
  owner text,
  body text not null,
  bytes integer not null,
  created_at timestamptz not null default now()
);
create index if not exists grove_calls_owner on grove_calls (owner);
create table if not exists grove_tokens (
  workflow_id text not null,
  stream_key text not null,
  attempt integer not null,
  seq integer not null,
  state text not null,
  body text not null,
  updated_at timestamptz not null default now(),
  primary key (workflow_id, stream_key)
);
`;

/**
 * Options for the store's connection pool, handed to `pg`'s `Pool`: the part of its `PoolConfig`
 * a store needs, spelled out here so that grove's published declarations do not depend on
 * `@types/pg` (a TypeScript consumer compiles without it, `skipLibCheck` on or off).
 */
export interface PostgresPoolOptions {
  /** TLS to the server: `true`, or Node's TLS options (`{ ca, rejectUnauthorized, ... }`). */
  ssl?: boolean | ConnectionOptions;
  /** Connections at most (default 8). */
  max?: number;
  /** Ms an idle connection stays open (default 10 s). */
  idleTimeoutMillis?: number;
  /** Ms to wait for a connection (default 10 s). */
  connectionTimeoutMillis?: number;
  /** Ms a statement may run on the server. */
  statement_timeout?: number;
  /** Ms the client waits for a query. */
  query_timeout?: number;
  application_name?: string;
  keepAlive?: boolean;
}

/**
 * The store every worker can reach: PostgreSQL. Chosen over Redis because it is a store of
 * record by default — every committed write is on disk (WAL + fsync) and survives a restart —
 * where Redis keeps data in memory and persists it only if configured to; and because the teams
 * that run Temporal themselves usually already run PostgreSQL (it is one of Temporal's own
 * persistence backends).
 *
 * Three tables: `grove_entries` (content-addressed messages and path records, JSON text),
 * `grove_owners` (which workflow needs which entry, for retention) and `grove_calls` (recorded
 * results of finished calls, by call key, with their owner). Every write is one statement. A
 * fourth, `grove_tokens`, holds answers while they stream (`PostgresTokenChannel`), briefly.
 * Its driver, `pg`, is an optional peer dependency loaded here: without it the constructor
 * throws `GroveEngineMissing`, naming the package to add.
 *
 * @example
 * const store = new PostgresMessageStore('postgres://grove:secret@db.internal:5432/grove');
 * await store.check(); // creates the tables, or fails naming the (redacted) URL
 */
export class PostgresMessageStore implements MessageStore {
  private readonly pool: Pool;
  private ready?: Promise<void>;
  private tokens?: PostgresTokenChannel;

  constructor(
    readonly url: string,
    private readonly config: PostgresPoolOptions = {},
  ) {
    const { Pool } = requireEngine<typeof import('pg')>('pg');
    this.pool = new Pool({ connectionString: url, max: 8, idleTimeoutMillis: 10_000, connectionTimeoutMillis: 10_000, ...config });
    // An idle client that loses its connection must not crash the worker; the next query reconnects.
    this.pool.on('error', () => {});
  }

  async put(entries: Record<Ref, StoreEntry>, owner?: string): Promise<void> {
    const refs = Object.keys(entries);
    if (refs.length === 0) return;
    const bodies = refs.map((ref) => entryText(entries[ref]));
    await this.query(
      `with written as (
         insert into grove_entries (ref, body, bytes)
         select * from unnest($1::text[], $2::text[], $3::int[]) on conflict (ref) do nothing
       )
       insert into grove_owners (owner, ref) select $4, r from unnest($1::text[]) r where $4::text is not null on conflict do nothing`,
      [refs, bodies, bodies.map((b) => Buffer.byteLength(b)), owner ?? null],
    );
  }

  async get(ref: Ref): Promise<StoreEntry | undefined> {
    const { rows } = await this.query<{ body: string }>('select body from grove_entries where ref = $1', [ref]);
    return rows[0] ? (JSON.parse(rows[0].body) as StoreEntry) : undefined;
  }

  async getCallResult(key: string): Promise<unknown> {
    const { rows } = await this.query<{ body: string }>('select body from grove_calls where key = $1', [key]);
    return rows[0] ? JSON.parse(rows[0].body) : undefined;
  }

  async putCallResult(key: string, result: unknown, owner?: string): Promise<void> {
    const body = entryText(result);
    await this.query('insert into grove_calls (key, owner, body, bytes) values ($1, $2, $3, $4) on conflict (key) do nothing', [
      key,
      owner ?? null,
      body,
      Buffer.byteLength(body),
    ]);
  }

  describe(): string {
    return redactUrl(this.url);
  }

  /** Answers while they stream: a row each in `grove_tokens`, readers told by LISTEN/NOTIFY. */
  tokenChannel(): TokenChannel {
    const { Client } = requireEngine<typeof import('pg')>('pg');
    return (this.tokens ??= new PostgresTokenChannel(
      (text, values) => this.query(text, values),
      () => new Client({ connectionString: this.url, connectionTimeoutMillis: 10_000, ...(this.config.ssl !== undefined ? { ssl: this.config.ssl } : {}) }),
    ));
  }

  async check(): Promise<void> {
    await this.schema();
  }

  async stats(): Promise<StoreStats> {
    const { rows } = await this.query<{ entries: string; entry_bytes: string; calls: string; call_bytes: string; owners: string; oldest: Date | null }>(
      `select (select count(*) from grove_entries) as entries,
              (select coalesce(sum(bytes), 0) from grove_entries) as entry_bytes,
              (select count(*) from grove_calls where key not like '${FLEET_RECORD_PREFIX}%') as calls,
              (select coalesce(sum(bytes), 0) from grove_calls where key not like '${FLEET_RECORD_PREFIX}%') as call_bytes,
              (select count(*) from (select owner from grove_owners union select owner from grove_calls where owner is not null) o) as owners,
              (select min(t) from (select min(created_at) as t from grove_entries union all select min(created_at) from grove_calls) m) as oldest`,
    );
    const r = rows[0];
    return {
      entries: Number(r.entries),
      entryBytes: Number(r.entry_bytes),
      calls: Number(r.calls),
      callBytes: Number(r.call_bytes),
      owners: Number(r.owners),
      oldestMs: r.oldest ? r.oldest.getTime() : undefined,
    };
  }

  async collect(plan: CollectPlan): Promise<CollectReport> {
    const { rows } = await this.query<{ owner: string }>('select owner from grove_owners union select owner from grove_calls where owner is not null');
    const dead: string[] = [];
    for (const { owner } of rows) if (!(await plan.isLive(owner))) dead.push(owner);
    const cutoff = new Date(plan.keepNewerThanMs);
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query('delete from grove_owners where owner = any($1)', [dead]);
      const calls = await client.query<{ bytes: number }>(
        `delete from grove_calls where (owner = any($1) or owner is null) and created_at < $2 and key not like '${FLEET_RECORD_PREFIX}%' returning bytes`,
        [dead, cutoff],
      );
      const entries = await client.query<{ bytes: number }>(
        `delete from grove_entries e where e.created_at < $1
           and not exists (select 1 from grove_owners o where o.ref = e.ref) returning bytes`,
        [cutoff],
      );
      await client.query(plan.dryRun ? 'rollback' : 'commit');
      const bytes = [...calls.rows, ...entries.rows].reduce((sum, r) => sum + r.bytes, 0);
      return { owners: rows.length, deadOwners: dead.length, entriesDeleted: entries.rowCount ?? 0, callsDeleted: calls.rowCount ?? 0, bytesFreed: bytes };
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.tokens?.close();
    if (!this.pool.ended) await this.pool.end();
  }

  private schema(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.pool.connect().catch((err: Error) => {
        throw new StoreUnavailableError(
          `cannot reach the message store at ${this.describe()}: ${err.message}; check that PostgreSQL runs there and accepts this user (GROVE_STORE_URL)`,
        );
      });
      try {
        await client.query('begin');
        await client.query(`select pg_advisory_xact_lock(hashtext('grove_store_schema'))`);
        await client.query(SCHEMA);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw new StoreUnavailableError(`cannot create grove's tables in ${this.describe()}: ${(err as Error).message}`);
      } finally {
        client.release();
      }
    })();
    this.ready.catch(() => (this.ready = undefined)); // a failed start may be retried
    return this.ready;
  }

  private async query<R extends object = object>(text: string, values?: unknown[]) {
    await this.schema();
    return this.pool.query<R>(text, values);
  }
}
