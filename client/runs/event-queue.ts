/**
 * Items pushed by several producers, read by one async iterator in the order pushed: how the
 * events of a run's status poll and of its token channel become one stream. `end()` lets the
 * reader finish what was pushed; `fail(err)` makes its next read throw.
 *
 * @example
 * const queue = new EventQueue<number>();
 * queue.push(1); queue.end();
 * for await (const n of queue) console.log(n); // 1
 */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private error: { err: unknown } | undefined;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(err: unknown): void {
    this.error ??= { err };
    this.ended = true;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.error) throw this.error.err;
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
