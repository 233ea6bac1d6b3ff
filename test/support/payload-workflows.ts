import { proxyActivities } from '@temporalio/workflow';

/**
 * A test-only workflow that calls an activity of the test's own (`oversized`), retried without an
 * attempt limit: the payload guard must end it at once when the activity's result is too large.
 */
export async function callOversized(): Promise<string> {
  const { oversized } = proxyActivities<{ oversized(): Promise<string> }>({ startToCloseTimeout: 10_000, retry: { initialInterval: 100, maximumInterval: 200 } });
  return oversized();
}
