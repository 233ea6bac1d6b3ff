import type { Client } from '@temporalio/client';
import { overridesFromReason, type RunOverrides } from '../../core/runs/run-overrides';
import { activityContext } from '../activity-context';

/** What a resumed run learns at its resume point. */
export interface ResumeRead {
  /** The run that was resumed (the run id the reset created). */
  runId: string;
  /** The changed settings `grove resume` passed, if any. */
  overrides?: RunOverrides;
}

/** `WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW`: the failed task that marks a reset in the new run's history. */
const RESET = 20;

/**
 * `groveResumeOverrides`: a resumed run calls it once, at the first decision it makes after the
 * reset, to read the settings the resume changed. They travel in the reset's reason (the one
 * place a reset records text in the new run's history), so the run reads them through an
 * activity result — in its own history, replayed as recorded — and nothing can race the reset.
 *
 * @example
 * const { overrides } = await activities.groveResumeOverrides();
 */
export function createResumeActivities() {
  return {
    async groveResumeOverrides(): Promise<ResumeRead> {
      const ctx = activityContext();
      const execution = ctx?.info.workflowExecution;
      if (!ctx || !execution) return { runId: '' };
      const reason = await resetReason(ctx.client, ctx.info.workflowNamespace ?? 'default', execution.workflowId, execution.runId);
      const overrides = overridesFromReason(reason);
      return overrides ? { runId: execution.runId, overrides } : { runId: execution.runId };
    },
  };
}

export type ResumeActivities = ReturnType<typeof createResumeActivities>;

/** The reason of the reset that created run `runId`, read from the newest events backwards. */
async function resetReason(client: Client, namespace: string, workflowId: string, runId: string): Promise<string | undefined> {
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.getWorkflowExecutionHistoryReverse({
      namespace,
      execution: { workflowId, runId },
      maximumPageSize: 200,
      nextPageToken,
    });
    for (const event of page.history?.events ?? []) {
      const failed = event.workflowTaskFailedEventAttributes;
      if (failed?.cause === RESET && (failed.newRunId === runId || !failed.newRunId)) return failed.failure?.message ?? undefined;
    }
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return undefined;
}
