import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedStore } from '../../activities/store/cached-store';
import { FileMessageStore } from '../../activities/store/file-message-store';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import type { MessageStore } from '../../activities/store/message-store';
import { openStore } from '../../activities/store/open-store';
import { PostgresMessageStore } from '../../activities/store/postgres-message-store';
import { resolveConversation } from '../../activities/store/resolve-conversation';
import { StoreUnavailableError } from '../../activities/store/store-errors';
import { ConversationRefs } from '../../core/hash/conversation-refs';
import { messageRef } from '../../core/hash/refs';
import { assistantMessage, systemMessage, userMessage } from '../../core/schemas/messages';
import { freshDatabase } from '../support/postgres';

/**
 * The store contract, on every backend: the folder, PostgreSQL (the real server the test run
 * started) and memory. Each PostgreSQL test gets a database of its own, so retention tests
 * delete nothing another test needs.
 */
const baseUrl = process.env.GROVE_TEST_STORE_URL!;
let dir: string;
const opened: MessageStore[] = [];
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'grove-stores-'))));
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const backends: [string, () => Promise<MessageStore>][] = [
  ['folder', async () => new FileMessageStore(join(dir, 'store'))],
  ['postgres', async () => new PostgresMessageStore(await freshDatabase())],
  ['memory', async () => new MemoryMessageStore()],
];

async function open(make: () => Promise<MessageStore>): Promise<MessageStore> {
  const store = await make();
  opened.push(store);
  await store.check();
  return store;
}

function chain() {
  const refs = new ConversationRefs();
  const root = refs.addPath(null, undefined, [systemMessage('s'), userMessage('u')]);
  const answer = refs.addPath(root, undefined, [assistantMessage('a1')]);
  return { refs, root, answer };
}

describe.each(backends)('%s store', (_name, make) => {
  test('entries are content-addressed and idempotent; a conversation rebuilds from its ref alone', async () => {
    const store = await open(make);
    const { refs, answer } = chain();
    await resolveConversation(store, refs.input(answer));
    await resolveConversation(store, refs.input(answer)); // written twice: no error, no duplicate
    expect(await resolveConversation(store, { path: answer })).toEqual([systemMessage('s'), userMessage('u'), assistantMessage('a1')]);
    expect((await store.stats()).entries).toBe(5); // 3 messages, 2 path records
  });

  test('call results are recorded by key and never overwritten', async () => {
    const store = await open(make);
    expect(await store.getCallResult('wf/g0/abc/0')).toBeUndefined();
    await store.putCallResult('wf/g0/abc/0', { answer: 1 }, 'wf');
    await store.putCallResult('wf/g0/abc/0', { answer: 2 }, 'wf');
    expect(await store.getCallResult('wf/g0/abc/0')).toEqual({ answer: 1 });
  });

  test('gc deletes what only closed runs own, keeps what a live run shares, and keeps recent entries', async () => {
    const store = await open(make);
    const shared = userMessage('shared prompt');
    const old = userMessage('only the closed run');
    await store.put({ [messageRef(shared)]: shared, [messageRef(old)]: old }, 'closed-run');
    await store.put({ [messageRef(shared)]: shared }, 'live-run');
    await store.putCallResult('closed-run/g0/x/0', { paid: true }, 'closed-run');
    await store.putCallResult('live-run/g0/x/0', { paid: true }, 'live-run');
    const isLive = async (owner: string) => owner === 'live-run';

    // Everything is newer than a cutoff in the past: nothing goes.
    const recent = await store.collect({ isLive, keepNewerThanMs: Date.now() - 60_000 });
    expect(recent).toMatchObject({ owners: 2, deadOwners: 1, entriesDeleted: 0, callsDeleted: 0 });

    const dry = await store.collect({ isLive, keepNewerThanMs: Date.now() + 60_000, dryRun: true });
    expect(dry).toMatchObject({ entriesDeleted: 1, callsDeleted: 1 });
    expect(await store.get(messageRef(old))).toEqual(old);

    const report = await store.collect({ isLive, keepNewerThanMs: Date.now() + 60_000 });
    expect(report).toMatchObject({ entriesDeleted: 1, callsDeleted: 1 });
    expect(report.bytesFreed).toBeGreaterThan(0);
    expect(await store.get(messageRef(old))).toBeUndefined();
    expect(await store.get(messageRef(shared))).toEqual(shared);
    expect(await store.getCallResult('closed-run/g0/x/0')).toBeUndefined();
    expect(await store.getCallResult('live-run/g0/x/0')).toEqual({ paid: true });
    const stats = await store.stats();
    expect(stats).toMatchObject({ entries: 1, calls: 1 });
    expect(stats.oldestMs).toBeLessThanOrEqual(Date.now());
  });

  test('a worker\'s published registry is kept beside call results but is not a call: not counted, not collected', async () => {
    const store = await open(make);
    await store.putCallResult('grove-registry/3fa9c2d1e0b4a7f2', { fingerprint: '3fa9c2d1e0b4a7f2', entries: [] });
    await store.putCallResult('closed-run/g0/x/0', { paid: true }, 'closed-run');
    expect(await store.stats()).toMatchObject({ calls: 1 });
    const report = await store.collect({ isLive: async () => false, keepNewerThanMs: Date.now() + 60_000 });
    expect(report).toMatchObject({ callsDeleted: 1 });
    expect(await store.getCallResult('grove-registry/3fa9c2d1e0b4a7f2')).toMatchObject({ fingerprint: '3fa9c2d1e0b4a7f2' });
    expect(await store.stats()).toMatchObject({ calls: 0 });
  });
});

test('two stores on one PostgreSQL database see each other’s writes (two hosts)', async () => {
  const url = await freshDatabase();
  const [a, b] = [await open(async () => openStore(url)), await open(async () => openStore(url))];
  const { refs, answer } = chain();
  await resolveConversation(a, refs.input(answer));
  expect(await resolveConversation(b, { path: answer })).toHaveLength(3);
});

test('a local folder cache in front of PostgreSQL fills on reads and can be wiped at any time', async () => {
  const url = await freshDatabase();
  const cacheDir = join(dir, 'cache');
  const writer = await open(async () => openStore(url));
  const { refs, answer } = chain();
  await resolveConversation(writer, refs.input(answer));

  const reader = await open(async () => openStore({ url, cacheDir }));
  expect(reader).toBeInstanceOf(CachedStore);
  expect(await resolveConversation(reader, { path: answer })).toHaveLength(3);
  expect(readdirSync(cacheDir).filter((d) => /^[0-9a-f]{2}$/.test(d)).length).toBeGreaterThan(0);
  rmSync(cacheDir, { recursive: true, force: true });
  const again = await open(async () => openStore({ url, cacheDir }));
  expect(await resolveConversation(again, { path: answer })).toHaveLength(3);
});

test('a store that cannot be reached fails its check in one line, naming the URL without its password', async () => {
  const url = new URL(baseUrl);
  url.password = 'wrong-password';
  const store = openStore(url.toString());
  opened.push(store);
  const err = await store.check().then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err).toBeInstanceOf(StoreUnavailableError);
  expect(err!.message).toContain(`postgres://grove:***@${url.host}/grove`);
  expect(err!.message).not.toContain('wrong-password');
  expect(err!.message.split('\n')).toHaveLength(1);

  const closed = openStore(`postgres://grove:secret@127.0.0.1:1/grove`);
  opened.push(closed);
  await expect(closed.check()).rejects.toThrow(/^cannot reach the message store at postgres:\/\/grove:\*\*\*@127\.0\.0\.1:1\/grove: .*check that PostgreSQL runs there/);
});
