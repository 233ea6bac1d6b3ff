import type { WorkflowHandle } from '@temporalio/client';

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** Why a run cannot be resumed, in words that say what to do instead. Exit code 2 in the CLI. */
export class CannotResumeError extends Error {
  override name = 'GroveCannotResume';
}

/** Where `grove resume` continues a run from, found in its history. */
export interface ResumePlan {
  /** The `WorkflowTaskCompleted` event the run is reset to: the workflow task after it is made again. */
  resetEventId: number;
  /** How the run ended: `failed`, `cancelled`, `terminated` or `timedOut`. */
  ending: 'failed' | 'cancelled' | 'terminated' | 'timedOut';
  /** The first failed step, for a failed run whose failure came from an activity. */
  firstFailure?: { eventId: number; scheduledEventId: number; activityType: string; message: string; type?: string };
  /** One line saying where and why: what the reset's reason records. */
  why: string;
  /** Activities that completed before the reset point: their results stay in the run's history. */
  keptResults: number;
  /**
   * Activities that completed after the reset point: made again by the resumed run, their
   * recorded results come back from the message store by their call keys (nothing is paid).
   */
  reissuedResults: number;
}

const CLOSE_KEYS = [
  'activityTaskCompletedEventAttributes',
  'activityTaskFailedEventAttributes',
  'activityTaskTimedOutEventAttributes',
  'activityTaskCanceledEventAttributes',
] as const;

/**
 * Where to resume a run that failed, was cancelled, terminated or timed out: just before its
 * first failed step, keeping every result that succeeded.
 *
 * - The *end point* is the first failed activity (a failed run), the cancellation request, the
 *   termination or the timeout; for a failure with no failed activity (a workflow-level error),
 *   the failure itself.
 * - The run is reset to the last `WorkflowTaskCompleted` before the end point and before every
 *   activity or timer still pending there (an in-flight call is made again, not waited for
 *   forever) — i.e. the workflow task that scheduled the first failed step is made again.
 *
 * Results completed before that point stay in history; calls the re-made task schedules again
 * (a failed step's parallel siblings, calls in flight at a cancel) are served from the message
 * store by their ledger keys, so none that had succeeded is paid twice.
 *
 * @throws CannotResumeError for a run that is running, completed, or failed on its input.
 * @example
 * const plan = resumePlan((await handle.fetchHistory()).events ?? []);
 * plan.resetEventId; // 131
 */
export function resumePlan(events: HistoryEvent[]): ResumePlan {
  const last = events[events.length - 1];
  const id = (e: HistoryEvent) => Number(e.eventId);
  let ending: ResumePlan['ending'];
  let end: number;
  let firstFailure: ResumePlan['firstFailure'];
  if (last?.workflowExecutionFailedEventAttributes) {
    ending = 'failed';
    const failed = events.find((e) => e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes);
    const failure = last.workflowExecutionFailedEventAttributes.failure;
    if (!failed && failure?.applicationFailureInfo?.type === 'GroveInvalidInput') {
      throw new CannotResumeError(`the run failed on its input (${failure.message}): a resume cannot change a run's input — fix it and start a new run`);
    }
    if (failed) {
      const attrs = failed.activityTaskFailedEventAttributes ?? failed.activityTaskTimedOutEventAttributes!;
      const scheduledEventId = Number(attrs.scheduledEventId);
      const scheduled = events.find((e) => id(e) === scheduledEventId);
      const f = attrs.failure;
      firstFailure = {
        eventId: id(failed),
        scheduledEventId,
        activityType: scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? 'activity',
        message: (f?.message || 'failed').split('\n')[0],
        type: f?.applicationFailureInfo?.type || undefined,
      };
      end = id(failed);
    } else {
      end = id(last);
    }
  } else if (last?.workflowExecutionCanceledEventAttributes) {
    ending = 'cancelled';
    const requested = events.find((e) => e.workflowExecutionCancelRequestedEventAttributes);
    end = requested ? id(requested) : id(last);
  } else if (last?.workflowExecutionTerminatedEventAttributes) {
    ending = 'terminated';
    end = id(last);
  } else if (last?.workflowExecutionTimedOutEventAttributes) {
    ending = 'timedOut';
    end = id(last);
  } else if (last?.workflowExecutionCompletedEventAttributes || last?.workflowExecutionContinuedAsNewEventAttributes) {
    throw new CannotResumeError('the run completed: there is nothing to resume (`grove fork --node N` continues its tree from a node)');
  } else {
    throw new CannotResumeError('the run is still running: resume a run once it has failed, or cancel it first (`grove cancel`)');
  }

  // Make again anything still pending at the end point: an activity in flight, a durable sleep.
  let start = firstFailure ? Math.min(end, firstFailure.scheduledEventId) : end;
  const closed = new Set<number>();
  const firedTimers = new Set<string>();
  for (const e of events) {
    if (id(e) >= end) break;
    for (const key of CLOSE_KEYS) {
      const attrs = e[key] as { scheduledEventId?: unknown } | null | undefined;
      if (attrs) closed.add(Number(attrs.scheduledEventId));
    }
    const timerId = e.timerFiredEventAttributes?.timerId ?? e.timerCanceledEventAttributes?.timerId;
    if (timerId) firedTimers.add(timerId);
  }
  for (const e of events) {
    if (id(e) >= start) break;
    const pendingActivity = e.activityTaskScheduledEventAttributes && !closed.has(id(e));
    const pendingTimer = e.timerStartedEventAttributes && !firedTimers.has(e.timerStartedEventAttributes.timerId ?? '');
    if (pendingActivity || pendingTimer) {
      start = id(e);
      break;
    }
  }
  const reset = events.filter((e) => e.workflowTaskCompletedEventAttributes && id(e) < start).pop();
  if (!reset) throw new CannotResumeError('the run ended in its first workflow task: there is nothing to keep — start a new run');
  const resetEventId = id(reset);

  let keptResults = 0;
  let reissuedResults = 0;
  for (const e of events) {
    if (!e.activityTaskCompletedEventAttributes) continue;
    if (Number(e.activityTaskCompletedEventAttributes.scheduledEventId) < resetEventId) keptResults++;
    else reissuedResults++;
  }
  const where =
    firstFailure !== undefined
      ? `before the first failed step (${firstFailure.activityType}, event ${firstFailure.scheduledEventId}: ${firstFailure.message})`
      : ending === 'failed'
        ? 'before the workflow task that failed'
        : ending === 'cancelled'
          ? 'before the cancellation'
          : ending === 'terminated'
            ? 'before the termination'
            : 'before the timeout';
  return { resetEventId, ending, firstFailure, why: `resumed from event ${resetEventId}, ${where}`, keptResults, reissuedResults };
}
