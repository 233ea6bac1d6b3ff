import { Client } from 'pg';
import { PostgresMessageStore } from '../../activities/store/postgres-message-store';
import { TOKENS_CHANNEL } from '../../activities/store/postgres-token-channel';
import { freshDatabase } from '../support/postgres';
import { readUntil, tokenChannelContract, tokenStream } from '../support/token-channel-contract';

/**
 * The PostgreSQL token channel on the test run's real server: the same contract as the folder
 * and memory channels (test/unit/activities/token-channel.test.ts), between two stores — two
 * pools, as two workers on two hosts have — and notifications that carry no text.
 */
tokenChannelContract('postgres', async () => {
  const url = await freshDatabase();
  const worker = new PostgresMessageStore(url);
  const viewer = new PostgresMessageStore(url);
  await Promise.all([worker.check(), viewer.check()]);
  return { writer: worker.tokenChannel(), reader: viewer.tokenChannel(), close: async () => void (await Promise.all([worker.close(), viewer.close()])) };
});

test('a publication notifies readers with a small payload: the text stays in its row (NOTIFY carries at most 8000 bytes)', async () => {
  const url = await freshDatabase();
  const store = new PostgresMessageStore(url);
  await store.check();
  const listener = new Client({ connectionString: url });
  await listener.connect();
  const payloads: string[] = [];
  listener.on('notification', (n) => payloads.push(n.payload ?? ''));
  await listener.query(`listen ${TOKENS_CHANNEL}`);
  try {
    const long = tokenStream({ text: 'a long answer '.repeat(2_000) }); // 28,000 characters
    const controller = new AbortController();
    const reading = readUntil(store.tokenChannel().subscribe(long.workflowId, controller.signal), (seen) => seen.at(-1)?.state === 'done');
    await store.tokenChannel().publish(long);
    await store.tokenChannel().publish({ ...long, seq: 2, state: 'done' });
    const seen = await reading;
    controller.abort();
    expect(seen.at(-1)!.text).toBe(long.text);
    for (let i = 0; i < 100 && payloads.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(payloads.length).toBeGreaterThanOrEqual(2);
    expect(payloads.every((p) => p.length < 100 && !p.includes('long answer'))).toBe(true);
  } finally {
    await listener.end();
    await store.close();
  }
});
