import type { Client } from '@temporalio/client';
import type { AgentResult } from '../../core/agents/agent-result';
import type { AiretryResult } from '../../core/airetry/airetry-input';
import type { CodeFixerResult } from '../../core/code/code-fixer-input';
import { notRecomputable, recomputed, verifyReport, type ClaimCheck, type VerifyReport } from '../../core/verdicts/claims';
import { recheckAgent, recheckCodeFixer } from '../../core/verdicts/recheck-agent';
import { recheckAiretry } from '../../core/verdicts/recheck-airetry';
import type { Verdict } from '../../core/verdicts/verdict';
import { runInput } from './run-input';
import { describeRunState, runState } from './run-state';

/**
 * Re-checks what a finished run claims, from what Temporal stored — its input (first history
 * event) and its result — without a worker and without calling a model: every deterministic
 * claim is recomputed (airetry checks on the returned answer, `success` from them, an agent's
 * answer and solution rule, a code fixer's tally), and each claim that cannot be (an LLM
 * judge's opinion, a custom evaluator, tests that ran in the sandbox on a worker) is listed
 * with who decided it. A run that did not complete claims nothing.
 *
 * @example
 * const report = await verifyRun(client, 'airetry-1a2b');
 * report.holds; // false when some claim does not hold of the stored outputs
 */
export async function verifyRun(client: Client, workflowId: string): Promise<VerifyReport> {
  const state = await runState(client, workflowId);
  const kind = state.workflowType === 'codeFixer' ? 'code-fixer' : state.workflowType;
  if (state.temporalStatus !== 'COMPLETED') {
    // Nothing to verify is not "the claims hold": a script that checks the exit code must not take a failed run for a verified one.
    return verifyReport(workflowId, kind, undefined, [recomputed('the run completed', false, `${workflowId} ${describeRunState(state)}: a run that did not complete has no result, so nothing it did is verified`)]);
  }
  const handle = client.workflow.getHandle(workflowId);
  const [result, input] = await Promise.all([handle.result() as Promise<Record<string, unknown>>, runInput(client, client.workflow.getHandle(workflowId, state.runId))]);
  const verdict = result.verdict as Verdict | undefined;
  return verifyReport(workflowId, kind, verdict, [...claimsOf(kind, input, result), ...verdictClaims(result, verdict)]);
}

function claimsOf(kind: string, input: unknown, result: Record<string, unknown>): ClaimCheck[] {
  try {
    switch (kind) {
      case 'airetry':
        return recheckAiretry(input, result as unknown as AiretryResult);
      case 'agent':
        return recheckAgent(input, result as unknown as AgentResult);
      case 'code-fixer':
        return recheckCodeFixer(input, result as unknown as CodeFixerResult);
      default:
        return [notRecomputable('no verdict', `a ${kind} run returns an answer and claims nothing about it: there is nothing to re-check`)];
    }
  } catch (err) {
    return [recomputed('the stored result is readable', false, (err as Error).message.split('\n')[0]!)];
  }
}

/** A claimed success with no verdict (a run from before grove recorded who decided) is not verified, and says so. */
function verdictClaims(result: Record<string, unknown>, verdict: Verdict | undefined): ClaimCheck[] {
  const claims = typeof result.success === 'boolean' || typeof result.isSolution === 'boolean';
  if (!claims || verdict) return [];
  return [notRecomputable('who decided', 'the result does not say (a run from before grove recorded verdicts): its success is not verified')];
}
