import { defaultLocalThreads } from '../../../model-server/local/local-model-policy';

test('the local model leaves one core to the worker, the Temporal server and the sandbox (at least 1 thread, at most 4)', () => {
  expect([1, 2, 3, 4, 8, 64].map((cores) => defaultLocalThreads(cores))).toEqual([1, 1, 2, 3, 4, 4]);
});
