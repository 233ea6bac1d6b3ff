/**
 * Maps over `items` with at most `limit` promises in flight, keeping results in input order.
 * Which item starts next depends only on completion order, which a workflow replays from
 * history, so this is deterministic inside a workflow.
 *
 * @example
 * const scores = await mapLimit(children, 4, (child) => evaluate(child));
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
