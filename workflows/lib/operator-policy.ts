import { ApplicationFailure, patched, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { createPolicyActivities } from '../../activities/policy/load-policy';
import { policyViolations, type OperatorPolicy } from '../../core/policy/operator-policy';
import { patchId } from '../patches';
import { RunFailure } from '../../core/failures';

/** Change id: runs read their worker's operator policy at start and are held to it. */
export const OPERATOR_POLICY = patchId('grove-operator-policy');

const policyActivities = proxyLocalActivities<ReturnType<typeof createPolicyActivities>>({
  startToCloseTimeout: 10_000,
  retry: { maximumAttempts: 3 },
});

/**
 * The worker's operator policy, or undefined for a run recorded before runs read it. The input is
 * checked against it: a run that asks for more than the operator allows fails at once with
 * `GroveInvalidInput`, naming each field and its limit — the same words the client uses when it
 * rejects such an input before starting it.
 *
 * @example
 * const policy = await enforcePolicy('airetry', input);
 */
export async function enforcePolicy(kind: string, input: Record<string, unknown>): Promise<OperatorPolicy | undefined> {
  if (!patched(OPERATOR_POLICY)) return undefined;
  const policy = await policyActivities.grovePolicy();
  const problems = policyViolations(kind, input, policy, workflowInfo().taskQueue);
  if (problems.length > 0) throw ApplicationFailure.nonRetryable(`invalid ${kind} input: ${problems.join('; ')}`, RunFailure.InvalidInput);
  return policy;
}
