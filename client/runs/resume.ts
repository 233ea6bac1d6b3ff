import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { canonicalKind } from '../../core/runs/run-kind-names';
import { OVERRIDES_BY_KIND, OVERRIDES_PREFIX, unsupportedOverrides, type RunOverrides } from '../../core/runs/run-overrides';
import { GroveKind } from '../../workflows/search-attributes';
import { CannotResumeError, resumePlan, type ResumePlan } from './resume-plan';

export interface ResumeOptions {
  /** Settings the resumed run uses from its resume point on (a new model, a bigger budget). */
  overrides?: RunOverrides;
}

export interface Resumed {
  workflowId: string;
  /** The run the reset created (the workflow id stays the same). */
  runId: string;
  /** The run that was resumed. */
  previousRunId: string;
  plan: ResumePlan;
}

/**
 * Continues a failed, cancelled, terminated or timed-out run after its cause was fixed (a key, a
 * quota, a model name, a tool): a Temporal reset to just before its first failed step (see
 * `resumePlan`), so every result that succeeded is kept — those before the reset point in the
 * history, those the re-made workflow task asks for again from the message store, by their
 * ledger keys. The workflow id stays the same.
 *
 * `overrides` change what the run does from then on (a new model, a bigger budget): a reset
 * cannot change a run's input, so they travel in the reset's reason and the resumed run reads
 * them at its first decision after the reset (`resumePoint`), through its own history.
 *
 * @throws CannotResumeError for a run still running, completed, failed on its input, or with
 *   overrides its kind does not understand.
 * @example
 * const { runId, plan } = await resumeRun(client, 'agent-1a2b', { overrides: { model: 'gpt-4o-mini' } });
 */
export async function resumeRun(client: Client, workflowId: string, opts: ResumeOptions = {}): Promise<Resumed> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  const overrides = opts.overrides && Object.keys(opts.overrides).length > 0 ? opts.overrides : undefined;
  if (overrides) checkOverrides(canonicalKind(description.typedSearchAttributes.get(GroveKind) ?? description.type), overrides);
  const history = await client.workflow.getHandle(workflowId, description.runId).fetchHistory();
  const plan = resumePlan(history.events ?? []);
  const reason = `grove resume: ${plan.why}${overrides ? `\n${OVERRIDES_PREFIX}${JSON.stringify(overrides)}` : ''}`;
  const response = await client.workflowService.resetWorkflowExecution({
    namespace: client.options.namespace,
    workflowExecution: { workflowId, runId: description.runId },
    workflowTaskFinishEventId: plan.resetEventId as never, // an int64: protobufjs takes a number
    reason,
    requestId: randomUUID(),
  });
  return { workflowId, runId: response.runId ?? '', previousRunId: description.runId, plan };
}

function checkOverrides(kind: string, overrides: RunOverrides): void {
  const base = kind.split(':')[0];
  if (!(base in OVERRIDES_BY_KIND)) {
    throw new CannotResumeError(`a ${kind} run takes no changed settings (only grove's generate, airetry and agent runs do): resume it without them`);
  }
  const bad = unsupportedOverrides(base as keyof typeof OVERRIDES_BY_KIND, overrides);
  if (bad.length > 0) throw new CannotResumeError(`a ${base} run cannot change ${bad.join(', ')} on resume`);
}
