/**
 * The token side channel of the memory and folder stores (PostgreSQL's is an integration test),
 * and the publisher that feeds it while a model call streams.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMessageStore } from '../../../activities/store/file-message-store';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { MemoryTokenChannel } from '../../../activities/store/memory-token-channel';
import type { TokenStream } from '../../../activities/store/token-channel';
import { TokenPublisher } from '../../../activities/llm/token-publisher';
import { secretRedactor } from '../../../activities/secrets/secret-redactor';
import { tokenChannelContract } from '../../support/token-channel-contract';

tokenChannelContract('memory', async () => {
  const store = new MemoryMessageStore();
  const channel = store.tokenChannel();
  return { writer: channel, reader: channel, close: () => store.close() };
});

tokenChannelContract('folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-tokens-'));
  // Two stores over one folder: what a worker writes, another process reads.
  const worker = new FileMessageStore(dir);
  const viewer = new FileMessageStore(dir);
  return { writer: worker.tokenChannel(), reader: viewer.tokenChannel(), close: async () => void (await Promise.all([worker.close(), viewer.close()])) };
});

test('the folder channel keeps streams under <store>/streams, apart from entries and calls', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-tokens-'));
  const store = new FileMessageStore(dir);
  await store.tokenChannel().publish({ workflowId: 'wf', runId: 'r', activityId: '1', attempt: 1, choice: 0, text: 'hi', cut: false, state: 'streaming', seq: 1, atMs: Date.now() });
  expect(readdirSync(dir)).toEqual(['streams']);
  expect(await store.stats()).toMatchObject({ entries: 0, calls: 0 });
  await store.close();
});

/** A publisher on a memory channel, and everything it published, in order. */
function publisherOn(redact = secretRedactor({})) {
  const channel = new MemoryTokenChannel();
  const published: TokenStream[] = [];
  const publish = channel.publish.bind(channel);
  channel.publish = async (s) => {
    published.push(s);
    await publish(s);
  };
  const publisher = new TokenPublisher(channel, { workflowId: 'wf', runId: 'r', activityId: '7', attempt: 1 }, redact, { throttleMs: 0 });
  return { publisher, published };
}

const partial = (content: string) => () => new Map([[0, { content, refusal: null, toolCalls: [] }]]);
const settle = () => new Promise((r) => setTimeout(r, 20));

test('a secret split across two chunks never reaches the channel: the text so far is redacted, its possible start held back', async () => {
  const key = 'sk-live-0123456789abcdef';
  const { publisher, published } = publisherOn(secretRedactor({ OPENAI_API_KEY: key }));
  for (const sofar of ['The key is ', `The key is ${key.slice(0, 9)}`, `The key is ${key}`, `The key is ${key}, keep it.`]) {
    publisher.progress(partial(sofar));
    await settle();
  }
  await publisher.finish(new Map([[0, `The key is [redacted OPENAI_API_KEY], keep it.`]]));
  const texts = published.map((s) => s.text);
  expect(texts.join('\n')).not.toMatch(/sk-live|0123456789/);
  expect(texts).toContain('The key is ');
  expect(published.at(-1)).toMatchObject({ text: 'The key is [redacted OPENAI_API_KEY], keep it.', state: 'done' });
  expect(published.map((s) => s.seq)).toEqual(published.map((_, i) => i + 1));
});

test('a call that fails ends its stream as failed with what was shown; a redactor without safePrefix shows nothing until done', async () => {
  const { publisher, published } = publisherOn();
  publisher.progress(partial('half an ans'));
  await settle();
  await publisher.finish();
  expect(published.map((s) => [s.text, s.state])).toEqual([
    ['half an ans', 'streaming'],
    ['half an ans', 'failed'],
  ]);
  const blind = publisherOn(Object.assign((t: string) => t.replace(/secret/g, '***')));
  blind.publisher.progress(partial('a secret'));
  await settle();
  await blind.publisher.finish(new Map([[0, 'a ***']]));
  expect(blind.published.map((s) => s.text)).toEqual(['a ***']);
});

test('publications are throttled: many chunks in one tick are one publication of the latest text', async () => {
  const channel = new MemoryTokenChannel();
  let count = 0;
  const publish = channel.publish.bind(channel);
  channel.publish = async (s) => {
    count += 1;
    await publish(s);
  };
  const publisher = new TokenPublisher(channel, { workflowId: 'wf2', runId: 'r', activityId: '1', attempt: 1 }, secretRedactor({}), { throttleMs: 1_000 });
  for (let i = 1; i <= 50; i++) publisher.progress(partial('x'.repeat(i)));
  await settle();
  expect(count).toBe(1);
  await publisher.finish(new Map([[0, 'x'.repeat(50)]]));
  expect(count).toBe(2);
  expect((await channel.current('wf2'))[0]).toMatchObject({ text: 'x'.repeat(50), state: 'done' });
});
