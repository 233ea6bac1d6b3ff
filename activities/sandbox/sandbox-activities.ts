import { activityContext } from '../activity-context';
import type { CodeOutcome, ExecCodeInput } from '../../core/code/code-outcome';
import { execCode } from './exec-code';

/**
 * The sandbox as an activity: `groveExecCode` runs generated code (see {@link execCode}),
 * heartbeating while it runs and killing the sandbox when the activity is cancelled. It returns
 * what happened rather than failing, so a workflow can turn any outcome into feedback; only a
 * sandbox that cannot start is worth retrying, and it says so in `error.kind === 'sandbox'`. A
 * language whose engine is not installed fails the activity (`GroveEngineMissing`, not retried).
 *
 * @example
 * const { groveExecCode } = proxyActivities<SandboxActivities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '10 s' });
 * const outcome = await groveExecCode({ language: 'js', code: 'console.log(1 + 1)' });
 */
export function createSandboxActivities() {
  return {
    async groveExecCode(input: ExecCodeInput): Promise<CodeOutcome> {
      const ctx = activityContext();
      return execCode(input, { signal: ctx?.cancellationSignal, onProgress: () => ctx?.heartbeat() });
    },
  };
}

export type SandboxActivities = ReturnType<typeof createSandboxActivities>;
