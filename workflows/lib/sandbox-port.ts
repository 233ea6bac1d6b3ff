import { proxyActivities } from '@temporalio/workflow';
import type { CodeOutcome, ExecCodeInput } from '../../core/code/code-outcome';
import type { SandboxActivities } from '../../activities/sandbox/sandbox-activities';

/** Time a sandbox may spend loading its engine on top of the run's own limit (Pyodide takes 1–3 s on 2 cores). */
const ENGINE_START_MS = 90_000;

/**
 * The sandbox as seen from a workflow: one `groveExecCode` activity per run. The outcome (never
 * a failure for what the code did) is recorded in history, so a replay never runs code again;
 * a worker that dies mid-run is noticed by the heartbeat and the run is retried elsewhere.
 *
 * @example
 * const outcome = await execInSandbox({ language: 'python', code: 'print(1)' });
 */
export function execInSandbox(input: ExecCodeInput): Promise<CodeOutcome> {
  const { groveExecCode } = proxyActivities<SandboxActivities>({
    startToCloseTimeout: (input.timeoutMs ?? 5_000) + ENGINE_START_MS,
    heartbeatTimeout: 15_000,
    retry: { maximumAttempts: 3 },
  });
  return groveExecCode(input);
}
