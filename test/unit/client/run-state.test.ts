import { formatRunTable } from '../../../client/cli/commands/list';
import { runsQuery } from '../../../client/runs/list-runs';
import { describeRunState, runStatusOf, type RunState } from '../../../client/runs/run-state';
import { nondeterminismMessage, parseNondeterminism } from '../../../client/replay/divergence';

test("a run's status: Temporal's execution status wins, and says when the run could not record it", () => {
  expect(runStatusOf('COMPLETED', 'exhausted')).toEqual({ status: 'exhausted', derived: false });
  expect(runStatusOf('COMPLETED', 'succeeded')).toEqual({ status: 'succeeded', derived: false });
  expect(runStatusOf('COMPLETED', 'stopped')).toEqual({ status: 'stopped', derived: false });
  expect(runStatusOf('FAILED', 'failed')).toEqual({ status: 'failed', derived: false });
  expect(runStatusOf('FAILED', undefined)).toEqual({ status: 'failed', derived: true });
  expect(runStatusOf('CANCELLED', 'running')).toEqual({ status: 'cancelled', derived: true });
  expect(runStatusOf('TERMINATED', 'running')).toEqual({ status: 'terminated', derived: true });
  expect(runStatusOf('TIMED_OUT', 'running')).toEqual({ status: 'timedOut', derived: true });
  expect(runStatusOf('RUNNING', 'running')).toEqual({ status: 'running', derived: false });
});

const state = (over: Partial<RunState>): RunState => ({
  workflowId: 'agent-1',
  runId: 'r',
  workflowType: 'agent',
  kind: 'agent:mcts',
  status: 'running',
  derived: false,
  temporalStatus: 'RUNNING',
  taskQueue: 'grove',
  startTime: new Date(0),
  ...over,
});

test('describeRunState words each ending', () => {
  expect(describeRunState(state({ status: 'failed', calls: 15, reason: 'model "x" was not found', failureType: 'GroveModelNotFound' }))).toBe(
    'failed after 15 model calls: model "x" was not found (GroveModelNotFound)',
  );
  expect(describeRunState(state({ status: 'cancelled', calls: 1 }))).toBe('cancelled after 1 model call');
  expect(describeRunState(state({ status: 'exhausted', calls: 4, bestScore: 0.5 }))).toBe('finished without a solution after 4 model calls (best score 0.50)');
  expect(describeRunState(state({ status: 'stopped', calls: 6, bestScore: 0.2 }))).toBe('stopped by a person before it found a solution after 6 model calls (best score 0.20)');
  expect(runsQuery({ status: 'stopped' })).toBe('GroveKind IS NOT NULL AND ExecutionStatus = "Completed" AND GroveStatus = "stopped"');
  expect(describeRunState(state({ status: 'timedOut', derived: true, reason: 'too long' }))).toBe(
    "timed out: too long (Temporal execution status; the run could not record it itself)",
  );
  expect(describeRunState(state({ calls: 3 }))).toBe('running: 3 model calls so far');
});

test('runsQuery filters grove runs by status and kind', () => {
  expect(runsQuery()).toBe('GroveKind IS NOT NULL');
  expect(runsQuery({ status: 'failed', kind: 'agent' })).toBe('GroveKind IS NOT NULL AND ExecutionStatus = "Failed" AND (GroveKind = "agent" OR GroveKind STARTS_WITH "agent:")');
  expect(runsQuery({ status: 'exhausted', kind: 'agent:mcts', query: 'StartTime > "2025-01-01T00:00:00Z"' })).toBe(
    'GroveKind IS NOT NULL AND ExecutionStatus = "Completed" AND GroveStatus = "exhausted" AND GroveKind = "agent:mcts" AND (StartTime > "2025-01-01T00:00:00Z")',
  );
  expect(() => runsQuery({ status: 'done' as never })).toThrow('unknown status "done"');
});

test('grove list: an aligned table, derived statuses marked', () => {
  const rows = formatRunTable([state({ calls: 12, bestScore: 1 }), state({ workflowId: 'airetry-2', kind: 'airetry', status: 'terminated', derived: true, startTime: new Date(-7_200_000) })], 0);
  expect(rows).toEqual([
    'WORKFLOW ID  KIND        STATUS       CALLS  BEST  AGE',
    'agent-1      agent:mcts  running      12     1.00  0s',
    'airetry-2    airetry     terminated*  -      -     2h',
    "* from Temporal's execution status (the run could not record it itself)",
  ]);
});

test('nondeterminism messages: the event they name and what the code did instead', () => {
  const wrapped = new Error('Replay failed ... Failure { failure: Some(Failure { message: "[TMPRL1100] Nondeterminism error: Activity machine does not handle this event: HistoryEvent(id: 6, TimerStarted)", source: "" ...');
  const message = nondeterminismMessage(wrapped);
  expect(message).toBe('Activity machine does not handle this event: HistoryEvent(id: 6, TimerStarted)');
  expect(parseNondeterminism(message)).toEqual({ eventId: 6, eventType: 'TimerStarted', recorded: 'TimerStarted at event 6', codeDid: 'scheduled an activity' });
  expect(parseNondeterminism('No command scheduled for event HistoryEvent(id: 12, ActivityTaskScheduled)')).toMatchObject({
    eventId: 12,
    codeDid: 'issued no command there (it stopped earlier, or waits on something else)',
  });
  const mismatch = parseNondeterminism("Activity type of scheduled event 'llmChat' does not match activity type of activity command 'groveEvaluate'");
  expect(mismatch).toMatchObject({ eventType: 'ActivityTaskScheduled', recorded: 'activity "llmChat" scheduled', codeDid: 'scheduled activity "groveEvaluate"' });
  expect(mismatch.match!({ activityTaskScheduledEventAttributes: { activityType: { name: 'llmChat' } } } as never)).toBe(true);
});
