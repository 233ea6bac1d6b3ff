import { randomUUID } from 'node:crypto';
import { TOKEN_TEXT_MAX, type TokenChannel, type TokenStream } from '../../activities/store/token-channel';

/** A stream of a fresh run, at its first publication. */
export function tokenStream(over: Partial<TokenStream> = {}): TokenStream {
  return { workflowId: `run-${randomUUID().slice(0, 8)}`, runId: 'r1', activityId: '3', attempt: 1, choice: 0, text: '', cut: false, state: 'streaming', seq: 1, atMs: Date.now(), ...over };
}

/** Reads a subscription until `until` holds for what was read (or the subscription ends). */
export async function readUntil(iterable: AsyncIterable<TokenStream>, until: (seen: TokenStream[]) => boolean): Promise<TokenStream[]> {
  const seen: TokenStream[] = [];
  for await (const s of iterable) {
    seen.push(s);
    if (until(seen)) break;
  }
  return seen;
}

/**
 * What every token channel does, whatever its backend: `writer` publishes, `reader` reads (two
 * instances over one backend where that is possible: another process's view).
 */
export function tokenChannelContract(name: string, open: () => Promise<{ writer: TokenChannel; reader: TokenChannel; close(): Promise<void> }>): void {
  describe(`${name} token channel`, () => {
    let writer: TokenChannel;
    let reader: TokenChannel;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ writer, reader, close } = await open());
    });
    afterAll(() => close());

    test('a late reader gets the text so far first, then its growth, then how it ended', async () => {
      const first = tokenStream({ text: 'Hello' });
      await writer.publish(first);
      await writer.publish({ ...first, seq: 2, text: 'Hello, wor' });
      const controller = new AbortController();
      const subscription = reader.subscribe(first.workflowId, controller.signal)[Symbol.asyncIterator]();
      const sofar = await subscription.next();
      expect(sofar.value?.text).toBe('Hello, wor'); // the text so far, not the first chunk
      await writer.publish({ ...first, seq: 3, text: 'Hello, world' });
      await writer.publish({ ...first, seq: 4, text: 'Hello, world!', state: 'done' });
      const seen = [sofar.value!, ...(await readUntil({ [Symbol.asyncIterator]: () => subscription }, (s) => s.at(-1)?.state === 'done'))];
      controller.abort();
      expect(seen.map((s) => s.seq)).toEqual([...seen.map((s) => s.seq)].sort((a, b) => a - b));
      expect(seen.at(-1)).toMatchObject({ text: 'Hello, world!', state: 'done' });
      expect(await reader.current(first.workflowId)).toEqual([expect.objectContaining({ text: 'Hello, world!', state: 'done' })]);
    });

    test('an earlier publication never replaces a later one; a later attempt replaces the earlier attempt', async () => {
      const s = tokenStream({ text: 'second', seq: 2 });
      await writer.publish(s);
      await writer.publish({ ...s, seq: 1, text: 'first' });
      expect((await reader.current(s.workflowId)).map((x) => x.text)).toEqual(['second']);
      await writer.publish({ ...s, attempt: 2, seq: 1, text: 'retried' });
      expect((await reader.current(s.workflowId)).map((x) => x.text)).toEqual(['retried']);
    });

    test('each call and choice is its own stream, and a reader sees only its run', async () => {
      const a = tokenStream({ text: 'answer 0' });
      await writer.publish(a);
      await writer.publish({ ...a, choice: 1, text: 'answer 1' });
      await writer.publish({ ...a, activityId: '4', text: 'next call' });
      await writer.publish(tokenStream({ text: 'another run' }));
      expect((await reader.current(a.workflowId)).map((s) => s.text).sort()).toEqual(['answer 0', 'answer 1', 'next call']);
    });

    test('a text longer than the channel carries is cut to TOKEN_TEXT_MAX and marked so', async () => {
      const s = tokenStream({ text: 'x'.repeat(TOKEN_TEXT_MAX + 10) });
      await writer.publish(s);
      const [got] = await reader.current(s.workflowId);
      expect([got!.text.length, got!.cut]).toEqual([TOKEN_TEXT_MAX, true]);
    });

    test('a subscription ends when its reader aborts', async () => {
      const s = tokenStream({ text: 'x' });
      await writer.publish(s);
      const controller = new AbortController();
      const seen: TokenStream[] = [];
      const reading = (async () => {
        for await (const x of reader.subscribe(s.workflowId, controller.signal)) {
          seen.push(x);
          controller.abort();
        }
      })();
      await reading;
      expect(seen).toHaveLength(1);
    });
  });
}
