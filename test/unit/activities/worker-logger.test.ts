import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { formatLogEntry, selfAborted } from '../../../workers/worker-logger';

const at = 1_795_000_000_000n * 1_000_000n;

test('a retried activity failure is one line: what, where, which attempt, why, and what next', () => {
  const error = ApplicationFailure.retryable('the model endpoint at http://x/v1 (model m) failed (503: overloaded)\nmore detail', 'GroveProviderError');
  const line = formatLogEntry({ level: 'WARN', message: 'Activity failed', timestampNanos: at, meta: { activityType: 'llmChat', workflowId: 'agent-1', attempt: 3, error, taskToken: 'x'.repeat(200) } });
  expect(line).toBe(
    `${new Date(Number(at / 1_000_000n)).toISOString()} [WARN] llmChat for workflow agent-1 failed on attempt 3: GroveProviderError: the model endpoint at http://x/v1 (model m) failed (503: overloaded); retrying`,
  );
  const final = formatLogEntry({ level: 'WARN', message: 'Activity failed', timestampNanos: at, meta: { activityType: 'llmChat', workflowId: 'w', attempt: 1, error: ApplicationFailure.nonRetryable('bad key', 'GroveAuthFailed') } });
  expect(final).toMatch(/GroveAuthFailed: bad key; not retried$/);
  expect(formatLogEntry({ level: 'INFO', message: 'Worker state changed', timestampNanos: at, meta: { state: 'RUNNING' } })).toMatch(/\[INFO\] Worker state changed \{ state: 'RUNNING' \}$/);
});

test('a model call grove aborted itself (a cancelled run, a stopping worker) is not logged as a failure; a provider failure still is', () => {
  expect(selfAborted({ message: 'Activity failed', meta: { activityType: 'llmChat', error: new OpenAI.APIUserAbortError() } })).toBe(true);
  expect(selfAborted({ message: 'Activity failed', meta: { activityType: 'llmChat', error: ApplicationFailure.retryable('503', 'GroveProviderError') } })).toBe(false);
  expect(selfAborted({ message: 'Activity failed', meta: { error: new Error('Request was aborted.') } })).toBe(false);
});
