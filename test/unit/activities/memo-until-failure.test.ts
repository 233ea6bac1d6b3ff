import { memoUntilFailure } from '../../../activities/memo-until-failure';

test('shares one attempt between callers, forgets a failed one, and keeps a success', async () => {
  let calls = 0;
  const outcomes = [new Error('down'), 'up'];
  const get = memoUntilFailure(async () => {
    const outcome = outcomes[calls++];
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  const [a, b] = await Promise.allSettled([get(), get()]);
  expect([a.status, b.status, calls]).toEqual(['rejected', 'rejected', 1]);
  expect(await get()).toBe('up');
  expect(await get()).toBe('up');
  expect(calls).toBe(2);
});
