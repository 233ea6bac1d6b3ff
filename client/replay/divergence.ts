import type { WorkflowHandle } from '@temporalio/client';

export type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
type HistoryEvent = NonNullable<History['events']>[number];

/** Where the current workflow code stops making the decisions a history recorded. */
export interface Divergence {
  /** The first event of the history the code does not reproduce. */
  eventId?: number;
  /** Its type, e.g. `ActivityTaskScheduled`. */
  eventType?: string;
  /** What the history recorded there, in words: `activity "llmChat" scheduled`. */
  recorded: string;
  /** What the current code did instead, in words: `scheduled activity "groveEvaluate"`. */
  codeDid: string;
  /** The SDK's own message (`[TMPRL1100] Nondeterminism error: ...`). */
  message: string;
}

/** What each of the SDK's command state machines means the code did, by the machine's name in its message. */
const MACHINE_ACTIONS: [RegExp, string][] = [
  [/^Local activity machine/i, 'ran a local activity'],
  [/^Activity machine/i, 'scheduled an activity'],
  [/^Timer machine/i, 'started a timer (a sleep)'],
  [/^UpsertWorkflowSearchAttributesMachine/i, 'updated search attributes'],
  [/^(ModifyWorkflowProperties|upsert memo)/i, 'updated the memo'],
  [/^Complete workflow machine/i, 'completed the workflow'],
  [/^Fail workflow machine/i, 'failed the workflow'],
  [/^Cancel workflow machine/i, 'ended the workflow as cancelled'],
  [/^Continue as new workflow machine/i, 'continued as new'],
  [/^Change machine/i, 'recorded a patch marker (patched())'],
  [/^Child workflow machine/i, 'started a child workflow'],
  [/^Signal external WF machine/i, 'signalled another workflow'],
  [/^Cancel external WF machine/i, 'cancelled another workflow'],
];

/**
 * The SDK's nondeterminism message from a replay failure: `Activity type of scheduled event 'x'
 * does not match activity type of activity command 'y'`.
 *
 * @example
 * nondeterminismMessage(err); // "Activity machine does not handle this event: HistoryEvent(id: 6, TimerStarted)"
 */
export function nondeterminismMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const core = /\[TMPRL1100\] Nondeterminism error: (.*?)(?:", source:|$)/s.exec(text);
  return (core?.[1] ?? text).replace(/\\"/g, '"').trim();
}

/**
 * What a nondeterminism message says, as far as it says it: the event (when it names one), what
 * the history recorded and what the code did instead.
 *
 * @example
 * parseNondeterminism("Activity type of scheduled event 'a' does not match activity type of activity command 'b'");
 * // { recorded: 'activity "a" scheduled', codeDid: 'scheduled activity "b"', eventType: 'ActivityTaskScheduled', match: [Function] }
 */
export function parseNondeterminism(message: string): Omit<Divergence, 'message'> & { match?: (e: HistoryEvent) => boolean } {
  const typeMismatch = /^(Activity|Local activity|Child workflow) (type|id) of (?:scheduled event|recorded marker) '([^']*)' does not match \1 (?:type|id) of (?:activity |local activity )?command '([^']*)'/i.exec(message);
  if (typeMismatch) {
    const [, what, field, recorded, code] = typeMismatch;
    const noun = what.toLowerCase();
    const child = noun === 'child workflow';
    return {
      eventType: child ? 'StartChildWorkflowExecutionInitiated' : noun === 'activity' ? 'ActivityTaskScheduled' : 'MarkerRecorded',
      recorded: field === 'type' ? `${noun} "${recorded}" ${child ? 'started' : 'scheduled'}` : `${noun} id "${recorded}"`,
      codeDid: field === 'type' ? `${child ? 'started' : 'scheduled'} ${noun} "${code}"` : `used ${noun} id "${code}"`,
      match: (e) => {
        const attrs = e.activityTaskScheduledEventAttributes ?? e.startChildWorkflowExecutionInitiatedEventAttributes;
        if (!attrs) return false;
        if (field === 'id') return ('activityId' in attrs ? attrs.activityId : (attrs as { workflowId?: string }).workflowId) === recorded;
        return ('activityType' in attrs ? attrs.activityType?.name : (attrs as { workflowType?: { name?: string } }).workflowType?.name) === recorded;
      },
    };
  }
  const event = /HistoryEvent\(id: (\d+), (\w+)\)/.exec(message);
  const eventId = event ? Number(event[1]) : undefined;
  const eventType = event?.[2];
  if (/^No command scheduled for event/i.test(message)) {
    return { eventId, eventType, recorded: `${eventType ?? 'an event'} at event ${eventId}`, codeDid: 'issued no command there (it stopped earlier, or waits on something else)' };
  }
  const action = MACHINE_ACTIONS.find(([pattern]) => pattern.test(message))?.[1];
  return {
    eventId,
    eventType,
    recorded: eventType ? `${eventType} at event ${eventId}` : 'a different sequence of commands',
    codeDid: action ?? 'issued a different command',
  };
}

/** The `WorkflowTaskCompleted` events of a history (each is one batch of the workflow's decisions). */
export function workflowTasks(history: History): HistoryEvent[] {
  return (history.events ?? []).filter((e) => e.workflowTaskCompletedEventAttributes);
}

/**
 * The history up to the end of the decisions of its `k`-th workflow task (0-based): everything
 * before the next `WorkflowTaskScheduled` event. Replaying it checks the decisions of tasks 0..k.
 */
export function historyPrefix(history: History, k: number): History {
  const events = history.events ?? [];
  const tasks = workflowTasks(history);
  const after = Number(tasks[k].eventId);
  const next = events.find((e) => Number(e.eventId) > after && e.workflowTaskScheduledEventAttributes);
  return { ...history, events: next ? events.filter((e) => Number(e.eventId) < Number(next.eventId)) : events } as History;
}

/** The name of an event's type, from its attributes' key: `ActivityTaskScheduled`. */
export function eventTypeName(event: HistoryEvent): string {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k]);
  return key ? key.replace(/EventAttributes$/, '').replace(/^./, (c) => c.toUpperCase()) : 'Unknown';
}

/**
 * The first event of the task's commands (the events right after `WorkflowTaskCompleted` `k`)
 * that `match` accepts, else the first of them.
 */
export function eventInTask(history: History, k: number, match?: (e: HistoryEvent) => boolean): HistoryEvent | undefined {
  const events = history.events ?? [];
  const tasks = workflowTasks(history);
  const start = Number(tasks[k].eventId);
  const end = k + 1 < tasks.length ? Number(tasks[k + 1].eventId) : Infinity;
  const inTask = events.filter((e) => Number(e.eventId) > start && Number(e.eventId) < end && !e.workflowTaskScheduledEventAttributes);
  return (match && inTask.find(match)) ?? inTask[0];
}
