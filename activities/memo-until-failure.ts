/**
 * `make()` run once and its promise shared by every caller — until it fails: a failed attempt
 * is forgotten, so the next call tries again (a server that was down at first use is tried
 * again by the next activity attempt, not remembered as down forever).
 *
 * @example
 * const listing = memoUntilFailure(() => listTools(server));
 * await listing(); await listing(); // one listing
 */
export function memoUntilFailure<T>(make: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    if (!current) {
      const attempt = make();
      current = attempt;
      attempt.catch(() => {
        if (current === attempt) current = undefined;
      });
    }
    return current;
  };
}
