import { Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quietRuntime } from '../support/quiet-runtime';

/**
 * Recorded histories of every ready-made workflow (and the examples) replay against the current
 * code. A change that alters what a running workflow schedules or draws fails here: put it
 * behind `patched()`, then re-record with `npx tsx scripts/record-histories.ts`.
 */
const DIR = join(__dirname, '..', 'fixtures', 'histories');
beforeAll(quietRuntime);
const fixtures = readdirSync(DIR).filter((f) => f.endsWith('.json'));

test('there are recorded histories of each ready-made workflow', () => {
  const names = fixtures.map((f) => f.replace(/\.json$/, ''));
  for (const prefix of ['generate', 'airetry-', 'agent-mcts', 'agent-astar', 'agent-greedy', 'agent-beam', 'agent-cot', 'session']) {
    expect(names.some((n) => n.startsWith(prefix))).toBe(true);
  }
});

test.each(fixtures)('%s replays deterministically', async (file) => {
  const history = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
  await expect(
    Worker.runReplayHistory({ workflowBundle: { codePath: process.env.GROVE_TEST_WORKFLOW_BUNDLE! }, replayName: file }, history),
  ).resolves.toBeUndefined();
});

test('a history whose recorded decisions differ from the code is caught', async () => {
  const history = JSON.parse(readFileSync(join(DIR, 'generate.json'), 'utf8'));
  const scheduled = history.events.find((e: { activityTaskScheduledEventAttributes?: unknown }) => e.activityTaskScheduledEventAttributes);
  scheduled.activityTaskScheduledEventAttributes.activityType.name = 'somethingElse';
  await expect(
    Worker.runReplayHistory({ workflowBundle: { codePath: process.env.GROVE_TEST_WORKFLOW_BUNDLE! }, replayName: 'tampered' }, history),
  ).rejects.toThrow(/Nondeterminism|DeterminismViolation|activity type/i);
});
