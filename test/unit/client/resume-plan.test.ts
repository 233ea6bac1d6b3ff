import { CannotResumeError, resumePlan } from '../../../client/runs/resume-plan';

/** A history as a list of `[event type, attributes]`; ids are 1-based positions. */
type Spec = [string, Record<string, unknown>?][];
const events = (spec: Spec) => spec.map(([type, attrs = {}], i) => ({ eventId: i + 1, [`${type}EventAttributes`]: attrs })) as never[];

const start: Spec = [['workflowExecutionStarted'], ['workflowTaskScheduled'], ['workflowTaskStarted'], ['workflowTaskCompleted']]; // 1-4

test('a failed run resumes from the workflow task that scheduled its first failed step', () => {
  const history = events([
    ...start,
    ['activityTaskScheduled', { activityType: { name: 'llmChat' } }], // 5
    ['activityTaskStarted', { scheduledEventId: 5 }],
    ['activityTaskCompleted', { scheduledEventId: 5 }], // 7: kept
    ['workflowTaskScheduled'],
    ['workflowTaskStarted'],
    ['workflowTaskCompleted'], // 10: the reset point
    ['activityTaskScheduled', { activityType: { name: 'groveEvaluate' } }], // 11: a sibling
    ['activityTaskScheduled', { activityType: { name: 'llmChat' } }], // 12: the failing one
    ['activityTaskCompleted', { scheduledEventId: 11 }], // 13: made again, from the store
    ['activityTaskFailed', { scheduledEventId: 12, failure: { message: 'model "x" was not found', applicationFailureInfo: { type: 'GroveModelNotFound' } } }],
    ['workflowTaskScheduled'],
    ['workflowTaskStarted'],
    ['workflowTaskCompleted'],
    ['workflowExecutionFailed', { failure: { message: 'model "x" was not found' } }],
  ]);
  expect(resumePlan(history)).toEqual({
    resetEventId: 10,
    ending: 'failed',
    firstFailure: { eventId: 14, scheduledEventId: 12, activityType: 'llmChat', message: 'model "x" was not found', type: 'GroveModelNotFound' },
    why: 'resumed from event 10, before the first failed step (llmChat, event 12: model "x" was not found)',
    keptResults: 1,
    reissuedResults: 1,
  });
});

test('a cancelled run resumes before the cancellation and before every call still in flight then', () => {
  const history = events([
    ...start,
    ['activityTaskScheduled'], // 5: in flight at the cancel
    ['activityTaskStarted', { scheduledEventId: 5 }],
    ['workflowExecutionCancelRequested'], // 7
    ['workflowTaskScheduled'],
    ['workflowTaskStarted'],
    ['workflowTaskCompleted'],
    ['activityTaskCanceled', { scheduledEventId: 5 }],
    ['workflowExecutionCanceled'],
  ]);
  expect(resumePlan(history)).toMatchObject({ resetEventId: 4, ending: 'cancelled', why: 'resumed from event 4, before the cancellation' });
});

test('a terminated run with a durable sleep pending resumes before the sleep started', () => {
  const history = events([
    ...start,
    ['activityTaskScheduled'],
    ['activityTaskCompleted', { scheduledEventId: 5 }],
    ['workflowTaskScheduled'],
    ['workflowTaskStarted'],
    ['workflowTaskCompleted'], // 9
    ['timerStarted', { timerId: '1' }], // 10: pending at the end
    ['workflowExecutionTerminated', { reason: 'stop' }],
  ]);
  expect(resumePlan(history)).toMatchObject({ resetEventId: 9, ending: 'terminated', keptResults: 1 });
});

test('runs that cannot be resumed say why and what to do', () => {
  const invalid = events([...start, ['workflowExecutionFailed', { failure: { message: 'invalid agent input: tools', applicationFailureInfo: { type: 'GroveInvalidInput' } } }]]);
  expect(() => resumePlan(invalid)).toThrow(new CannotResumeError("the run failed on its input (invalid agent input: tools): a resume cannot change a run's input — fix it and start a new run"));
  expect(() => resumePlan(events([...start, ['workflowExecutionCompleted']]))).toThrow(/the run completed: there is nothing to resume \(`grove fork --node N`/);
  expect(() => resumePlan(events(start))).toThrow(/still running/);
  expect(() => resumePlan(events([['workflowExecutionStarted'], ['workflowExecutionTerminated']]))).toThrow(/first workflow task/);
});
