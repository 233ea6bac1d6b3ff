import { isCancellation, patched, proxyActivities, workflowInfo, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { ResumeActivities } from '../../activities/runs/resume-activities';
import type { RunOverrides } from '../../core/runs/run-overrides';

type Listener = (overrides: RunOverrides) => void;

const listeners: Listener[] = [];
/** Resumes this execution has gone through (replayed ones included): the next one's patch id. */
let resumes = 0;
/** The run id of the last resume applied: a run resumes at most once (its reset's first decision). */
let resumedRunId: string | undefined;
let activities: ActivityInterfaceFor<ResumeActivities> | undefined;
/** The read in flight: decisions waiting at the resume point share it. */
let reading: Promise<void> | undefined;

/**
 * Registers what a workflow does with a resume's changed settings (a new model for later calls,
 * a bigger budget). Module state of a workflow bundle belongs to one execution.
 *
 * @example
 * onResume((o) => { if (o.model) options.model = o.model; });
 */
export function onResume(listener: Listener): void {
  listeners.push(listener);
}

/**
 * The resume point: called at the start of a run and after every activity or timer it awaits,
 * i.e. before each decision. In a run that was never reset it returns without a command (so
 * runs and recorded histories are unchanged; replaying, it asks `patched()`, which finds no
 * marker). In a run created by a reset
 * (`grove resume`), the first call made after the reset — the first live decision, whatever
 * activity or timer it follows — records a patch marker (`grove-resume-<n>`) and reads the
 * resume's changed settings through the `groveResumeOverrides` activity, then hands them to the
 * `onResume` listeners before the decision is made. Replays find the marker at the same point
 * and make the same read from history; the decisions before the reset point, replayed without
 * the marker, stay exactly as they were.
 *
 * Returns undefined (nothing to await) except at that one point, so callers write
 * `const p = resumePoint(); if (p) await p;` and normal runs gain no extra await.
 *
 * @example
 * const result = await activity(...);
 * const resuming = resumePoint();
 * if (resuming) await resuming;
 */
export function resumePoint(): Promise<void> | undefined {
  if (reading) return reading;
  const info = workflowInfo();
  // Live, only a run created by a reset resumes (a reset changes the run id, not the original one),
  // and only once. Replaying, the history decides: a replayer runs every history under its
  // original run id, and the marker is where the resume happened.
  if (!info.unsafe.isReplaying && (info.runId === info.originalExecutionRunId || resumedRunId === info.runId)) return undefined;
  if (!patched(`grove-resume-${resumes + 1}`)) return undefined;
  resumes += 1;
  activities ??= proxyActivities<ResumeActivities>({
    startToCloseTimeout: 60_000,
    retry: { initialInterval: 1_000, maximumInterval: 10_000, maximumAttempts: 10 },
  });
  reading = activities.groveResumeOverrides
    .executeWithOptions({ startToCloseTimeout: 60_000, summary: 'resume: read the changed settings' }, [])
    .then((read) => {
      resumedRunId = read.runId;
      if (read.overrides) for (const listener of listeners) listener(read.overrides);
    })
    .finally(() => {
      reading = undefined;
    });
  return reading;
}

/**
 * `promise`'s outcome, after the resume point (see `resumePoint`): every activity and timer a
 * workflow awaits goes through this, so a resumed run's changed settings apply before the next
 * decision, whichever result the reset re-delivers first.
 *
 * @example
 * chat: (input) => afterResult(models.llmChat(input)),
 */
export async function afterResult<T>(promise: Promise<T>): Promise<T> {
  let value: T;
  try {
    value = await promise;
  } catch (err) {
    // A failure is a result too (airetry with `catchErrors` decides on it); a cancellation is not.
    const pending = isCancellation(err) ? undefined : resumePoint();
    if (pending) await pending;
    throw err;
  }
  const pending = resumePoint();
  if (pending) await pending;
  return value;
}
