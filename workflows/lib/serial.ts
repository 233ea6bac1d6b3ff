/**
 * Runs a workflow's update handlers one at a time, in the order they arrived: a conversation's
 * turns, rewinds and close must not interleave (a rewind in the middle of a turn would cut the
 * turn's own messages). Plain promise chaining, so it is deterministic on replay.
 *
 * @example
 * const serial = new Serial();
 * setHandler(sendUpdate, (req) => serial.run(() => runTurn(ctx, req.content, req.by)));
 * await condition(() => serial.idle && closed);
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  private inFlight = 0;

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => this.inFlight--,
      () => this.inFlight--,
    );
    return result;
  }

  /** Nothing running and nothing waiting. */
  get idle(): boolean {
    return this.inFlight === 0;
  }
}
