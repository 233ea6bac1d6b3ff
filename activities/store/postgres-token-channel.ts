import { contentRef } from '../../core/hash/refs';
import { capped, follow, streamKey, TOKEN_LINGER_MS, TOKEN_STALE_MS, Wakeups, type TokenChannel, type TokenStream } from './token-channel';

/** The notification channel: its payload is a run's hash only, since a NOTIFY carries at most 8000 bytes. */
export const TOKENS_CHANNEL = 'grove_tokens';
/** How often a reader looks again without a notification (one lost while the listener reconnected). */
const POLL_MS = 1_000;
const SWEEP_EVERY_MS = 60_000;

/** A statement on the store's pool. */
export type TokenQuery = <R extends object>(text: string, values?: unknown[]) => Promise<{ rows: R[] }>;

/** What the channel needs of a `pg` client to LISTEN (spelled out, so grove's declarations do not depend on `@types/pg`). */
export interface ListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<unknown>;
  on(event: 'notification', listener: (n: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
}

/**
 * The token channel of the PostgreSQL store, for workers and readers on any host: a stream's
 * text so far is a row of `grove_tokens` (one per run, call and choice), replaced by each
 * publication in one statement that also sends `NOTIFY grove_tokens` with the run's hash — never
 * the text, which may be far longer than a notification may carry. A reader LISTENs on one
 * connection of its own, and reads the run's rows when told (and every second regardless, in
 * case a notification was lost while it reconnected). A later publication of a stream wins
 * over an earlier one, also from another worker. Rows are deleted `TOKEN_LINGER_MS` after
 * their call ends, and swept once `TOKEN_STALE_MS` old; ages are the database's clock.
 *
 * @example
 * const tokens = new PostgresTokenChannel(query, () => new Client({ connectionString: url }));
 */
export class PostgresTokenChannel implements TokenChannel {
  private readonly wakeups = new Wakeups();
  private readonly closing = new AbortController();
  private listener: Promise<ListenClient | undefined> | undefined;
  private lastSweep = 0;

  constructor(
    private readonly query: TokenQuery,
    private readonly newClient: () => ListenClient,
  ) {}

  async publish(stream: TokenStream): Promise<void> {
    const s = capped(stream);
    const key = streamKey(s);
    await this.query(
      `with up as (
         insert into grove_tokens (workflow_id, stream_key, attempt, seq, state, body) values ($1, $2, $3, $4, $5, $6)
         on conflict (workflow_id, stream_key) do update set attempt = excluded.attempt, seq = excluded.seq, state = excluded.state, body = excluded.body, updated_at = now()
           where grove_tokens.attempt < excluded.attempt or (grove_tokens.attempt = excluded.attempt and grove_tokens.seq < excluded.seq)
         returning 1
       )
       select pg_notify('${TOKENS_CHANNEL}', $7) from up`,
      [s.workflowId, key, s.attempt, s.seq, s.state, JSON.stringify(s), contentRef(s.workflowId)],
    );
    if (s.state !== 'streaming') {
      setTimeout(() => {
        void this.query('delete from grove_tokens where workflow_id = $1 and stream_key = $2 and attempt = $3 and seq = $4', [s.workflowId, key, s.attempt, s.seq]).catch(() => {});
      }, TOKEN_LINGER_MS).unref();
    }
    if (Date.now() - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      void this.query(`delete from grove_tokens where updated_at < now() - make_interval(secs => $1)`, [TOKEN_STALE_MS / 1000]).catch(() => {});
    }
  }

  async current(workflowId: string): Promise<TokenStream[]> {
    const { rows } = await this.query<{ body: string }>(
      `select body from grove_tokens where workflow_id = $1
         and updated_at > now() - make_interval(secs => case when state = 'streaming' then $2::float8 else $3::float8 end)`,
      [workflowId, TOKEN_STALE_MS / 1000, TOKEN_LINGER_MS / 1000],
    );
    return rows.map((r) => JSON.parse(r.body) as TokenStream);
  }

  subscribe(workflowId: string, signal?: AbortSignal): AsyncIterable<TokenStream> {
    const hash = contentRef(workflowId);
    return follow(
      () => this.current(workflowId),
      (s) => {
        void this.listen();
        return this.wakeups.wait(hash, POLL_MS, s);
      },
      signal,
      this.closing.signal,
    );
  }

  async close(): Promise<void> {
    this.closing.abort();
    const client = await this.listener?.catch(() => undefined);
    this.listener = undefined;
    await client?.end().catch(() => {});
  }

  /** The LISTEN connection, opened on first use and again after it fails. */
  private listen(): Promise<ListenClient | undefined> {
    if (this.listener || this.closing.signal.aborted) return this.listener ?? Promise.resolve(undefined);
    const client = this.newClient();
    const drop = () => {
      if (this.listener === opened) this.listener = undefined;
      void client.end().catch(() => {});
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (n) => {
      if (n.channel === TOKENS_CHANNEL && n.payload) this.wakeups.wake(n.payload);
    });
    const opened: Promise<ListenClient | undefined> = client
      .connect()
      .then(() => client.query(`listen ${TOKENS_CHANNEL}`))
      .then(() => {
        if (this.closing.signal.aborted) void client.end().catch(() => {});
        return client;
      })
      .catch(() => {
        drop();
        return undefined; // the readers poll until it can listen again
      });
    this.listener = opened;
    return opened;
  }
}
