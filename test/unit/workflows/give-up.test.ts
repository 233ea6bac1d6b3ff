import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { retriesExhausted } from '../../../workflows/lib/give-up';

const bounds = { retryWindowMs: 15_000, maxAttempts: 5 };
const network = () => ApplicationFailure.retryable('cannot reach the model endpoint at http://m/v1 (ECONNREFUSED)\n    at stack line', 'GroveNetworkError');
const failed = (type: string, state: ActivityFailure['retryState'], cause: Error) => new ActivityFailure('Activity task failed', type, '7', state, 'w@host', cause);

test('a window that closed: the window and the last error, on one line, with the last error type', () => {
  expect(retriesExhausted(failed('llmChat', 'TIMEOUT', network()), bounds)).toEqual({
    type: 'GroveNetworkError',
    message:
      'model call (llmChat) gave up: its retry window closed (llm.retryWindowMs = 15,000 ms: every attempt and wait of one call together); last error: GroveNetworkError: cannot reach the model endpoint at http://m/v1 (ECONNREFUSED)',
  });
});

test('attempts that ran out: the cap (3 for tools when llm.maxAttempts is 0) and the last error', () => {
  expect(retriesExhausted(failed('llmChat', 'MAXIMUM_ATTEMPTS_REACHED', network()), bounds)?.message).toMatch(/^model call \(llmChat\) gave up: it used all 5 attempts it may make \(llm\.maxAttempts\); last error: GroveNetworkError: /);
  const tool = retriesExhausted(failed('groveRunTool', 'MAXIMUM_ATTEMPTS_REACHED', new Error('worker lost the tool')), { ...bounds, maxAttempts: 0 });
  expect(tool).toEqual({ type: 'GroveRetriesExhausted', message: 'tool (groveRunTool) gave up: it used all 3 attempts it may make (llm.maxAttempts; tools: at most 3); last error: none recorded' });
});

test('a window that closed on a running attempt, and an attempt that timed out, are timeouts', () => {
  const running = retriesExhausted(failed('llmChat', 'TIMEOUT', new TimeoutFailure('timed out', undefined, 'SCHEDULE_TO_CLOSE')), bounds);
  expect(running).toEqual({ type: 'GroveTimeout', message: expect.stringMatching(/; last error: none \(an attempt was still running when the window closed\)$/) });
  const heartbeat = new TimeoutFailure('timed out', undefined, 'SCHEDULE_TO_CLOSE');
  Object.assign(heartbeat, { cause: new TimeoutFailure('heartbeat', undefined, 'HEARTBEAT') });
  expect(retriesExhausted(failed('groveEvaluate', 'TIMEOUT', heartbeat), bounds)?.message).toMatch(/^evaluation \(groveEvaluate\) gave up: .*; last error: the attempt timed out \(heartbeat\)$/);
});

test('any other failure is not a give-up: a non-retryable error, a failure outside activities', () => {
  expect(retriesExhausted(failed('llmChat', 'NON_RETRYABLE_FAILURE', network()), bounds)).toBeUndefined();
  expect(retriesExhausted(new Error('boom'), bounds)).toBeUndefined();
});
