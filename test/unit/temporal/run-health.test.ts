import { formatRunTable } from '../../../client/cli/commands/list';
import { redactLine } from '../../../temporal/runs/redact-line';
import { clock, formatStep, judgeHealth, type PendingStep } from '../../../temporal/runs/run-health';
import type { RunState } from '../../../client/runs/run-state';

const T0 = Date.parse('2026-11-22T13:02:11Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const failing: PendingStep = {
  kind: 'model call',
  activityType: 'llmChat',
  activityId: '7',
  summary: 'expand n0 (depth 0): 2 candidates',
  state: 'backoff',
  attempt: 9,
  since: at(0),
  lastFailure: { type: 'GroveNetworkError', message: 'cannot reach the model endpoint at http://127.0.0.1:9/v1 (ECONNREFUSED): check OPENAI_BASE_URL and that the server is running' },
  nextAttemptAt: at(52),
};

test('a step failing longer than the threshold stalls its run: what, how many attempts since when, the last error, the next attempt', () => {
  const health = judgeHealth([failing], T0 + 40_000, 30_000);
  expect(health.state).toBe('stalled');
  expect(health.line).toBe(
    `stalled: model call (llmChat) expand n0 (depth 0): 2 candidates — 8 failed attempts since ${clock(at(0))}, last: GroveNetworkError: cannot reach the model endpoint at http://127.0.0.1:9/v1 (ECONNREFUSED): check OPENAI_BASE_URL and that the server is running; next attempt in 12 s`,
  );
});

test('below the threshold it is retrying; a running attempt, a queued step and a healthy run read as such', () => {
  expect(judgeHealth([failing], T0 + 10_000, 30_000).state).toBe('retrying');
  const running: PendingStep = { ...failing, state: 'running', nextAttemptAt: undefined, attemptStartedAt: at(50) };
  expect(formatStep(running, T0 + 53_000)).toMatch(/— 8 failed attempts since .*; attempt 9 running for 3 s$/);
  // A call that is just slow is not trouble; one no worker has taken for longer than the threshold is.
  const slow: PendingStep = { kind: 'model call', activityType: 'llmChat', state: 'running', attempt: 1, since: at(0), attemptStartedAt: at(0) };
  expect(judgeHealth([slow], T0 + 600_000, 30_000)).toMatchObject({ state: 'ok', line: '' });
  const queued: PendingStep = { kind: 'tool', activityType: 'groveRunTool', state: 'queued', attempt: 1, since: at(0), taskQueue: 'tools' };
  expect(judgeHealth([slow, queued], T0 + 45_000, 30_000).line).toBe(`stalled: tool (groveRunTool) — scheduled since ${clock(at(0))}; waiting 45 s for a worker on task queue "tools"`);
  // A retry whose time has just come is about to be taken, not starved of workers.
  const due: PendingStep = { ...failing, state: 'queued', nextAttemptAt: at(52), taskQueue: 'q' };
  expect(formatStep(due, T0 + 53_000)).toMatch(/; next attempt due now$/);
  expect(formatStep(due, T0 + 70_000)).toMatch(/; waiting 18 s for a worker on task queue "q"$/);
});

test('the worst step leads, and the others in trouble are counted', () => {
  const later: PendingStep = { ...failing, activityId: '8', since: at(30) };
  const health = judgeHealth([later, failing], T0 + 40_000, 30_000);
  expect(health.pending.map((s) => s.activityId)).toEqual(['7', '8']);
  expect(health.line).toMatch(/ \(\+1 more step in trouble\)$/);
});

test('grove list marks a run in trouble in STATUS and says what in TROUBLE', () => {
  const base = { runId: 'r', workflowType: 'agent', kind: 'agent:mcts', derived: false, temporalStatus: 'RUNNING', taskQueue: 'q', startTime: new Date(T0) };
  const runs = [
    { ...base, workflowId: 'agent-stuck', status: 'running', calls: 6, health: judgeHealth([failing], T0 + 40_000, 30_000) },
    { ...base, workflowId: 'agent-fine', status: 'running', calls: 3, health: judgeHealth([], T0 + 40_000, 30_000) },
  ] as RunState[];
  const lines = formatRunTable(runs, T0 + 40_000);
  expect(lines[0]).toMatch(/^WORKFLOW ID +KIND +STATUS +CALLS +BEST +AGE +TROUBLE$/);
  expect(lines[1]).toMatch(/^agent-stuck +agent:mcts +stalled +6 +- +40s +model call \(llmChat\) expand n0 .* 8 failed attempts since .*; next attempt in 12 s$/);
  expect(lines[2]).toMatch(/^agent-fine +agent:mcts +running +3 +- +40s$/);
  expect(formatRunTable([runs[1]], T0)[0]).not.toContain('TROUBLE');
});

test('a failure message is one line with secrets blanked out', () => {
  const redact = (t: string) => t.split('s3cr3t-value-123').join('[redacted MY_TOKEN]');
  expect(redactLine('token s3cr3t-value-123 rejected\n    at stack', redact)).toBe('token [redacted MY_TOKEN] rejected');
  expect(redactLine('401 Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuv', (t) => t)).toBe('401 Incorrect API key provided: [redacted key]');
  expect(redactLine('GET https://bob:hunter22@proxy.local/v1?api_key=abc123&x=1 failed; Authorization: Bearer abcdefghijkl', (t) => t)).toBe(
    'GET https://bob:[redacted]@proxy.local/v1?api_key=[redacted]&x=1 failed; Authorization: Bearer [redacted]',
  );
  expect(redactLine('x'.repeat(600), (t) => t)).toHaveLength(500);
});
