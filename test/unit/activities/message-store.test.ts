import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMessageStore } from '../../../activities/store/file-message-store';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { resolveConversation } from '../../../activities/store/resolve-conversation';
import { ConversationRefs } from '../../../core/hash/conversation-refs';
import { assistantMessage, systemMessage, userMessage } from '../../../core/schemas/messages';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'grove-store-test-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function chain() {
  const refs = new ConversationRefs();
  const root = refs.addPath(null, undefined, [systemMessage('s'), userMessage('u')]);
  const answer = refs.addPath(root, undefined, [assistantMessage('a1')]);
  const inplace = refs.addPath(answer, 1, [userMessage('u + feedback')]);
  return { refs, root, answer, inplace };
}

test.each([
  ['file', () => new FileMessageStore(join(dir, 'store'))],
  ['memory', () => new MemoryMessageStore()],
])('%s store: writes ride along once, then the ref alone rebuilds the conversation', async (_name, make) => {
  const store = make();
  const { refs, answer, inplace } = chain();
  const first = refs.input(inplace);
  expect(Object.keys(first.writes!.paths!)).toHaveLength(3);
  expect(await resolveConversation(store, first)).toEqual([systemMessage('s'), userMessage('u + feedback')]);
  refs.markStored(first);
  expect(refs.input(inplace)).toEqual({ path: inplace });
  expect(await resolveConversation(store, refs.input(answer))).toEqual([systemMessage('s'), userMessage('u'), assistantMessage('a1')]);
});

test('a file store written by one worker is read by another (a shared folder)', async () => {
  const { refs, answer } = chain();
  await resolveConversation(new FileMessageStore(join(dir, 'store')), refs.input(answer));
  expect(readdirSync(join(dir, 'store')).length).toBeGreaterThan(0);
  const other = new FileMessageStore(join(dir, 'store'));
  expect(await resolveConversation(other, { path: answer })).toHaveLength(3);
});

test('a missing ref is a non-retryable GroveStoreMiss naming the store', async () => {
  const { answer } = chain();
  const err = await resolveConversation(new FileMessageStore(join(dir, 'empty')), { path: answer }).catch((e: unknown) => e);
  expect(err).toMatchObject({ type: 'GroveStoreMiss', nonRetryable: true });
  expect((err as Error).message).toMatch(/^the message store \(folder .*empty\) has no path [0-9a-f]{32}: the content is lost\. Give every worker one store of record \(GROVE_STORE_URL=postgres/);
});

test('entries that do not match their refs are refused', async () => {
  const { refs, answer } = chain();
  const input = refs.input(answer);
  const [ref] = Object.keys(input.writes!.messages!);
  input.writes!.messages![ref] = userMessage('tampered');
  await expect(resolveConversation(new MemoryMessageStore(), input)).rejects.toMatchObject({ type: 'GroveBadRef' });
});
