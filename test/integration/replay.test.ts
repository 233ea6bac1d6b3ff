import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quietRuntime } from '../support/quiet-runtime';
import { describeReplay, replayHistory } from '../../client/replay/replay';
import { integrationSuite } from '../support/integration-suite';
import { ROOT, runCli } from '../support/run-cli';
import { groveClient } from '../support/temporal-env';

/**
 * Recorded histories of every ready-made workflow (and the examples) replay against the current
 * code. A change that alters what a running workflow schedules or draws fails here: put it
 * behind `patched()`, then re-record with `npx tsx scripts/record-histories.ts`. `grove replay`
 * says the same in plain words, and names the first event where a changed workflow differs.
 */
const suite = integrationSuite('replay');
const DIR = join(__dirname, '..', 'fixtures', 'histories');
beforeAll(quietRuntime);
const fixtures = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const bundle = () => ({ codePath: process.env.GROVE_TEST_WORKFLOW_BUNDLE! });
const history = (file: string) => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

test('there are recorded histories of each ready-made workflow', () => {
  const names = fixtures.map((f) => f.replace(/\.json$/, ''));
  for (const prefix of ['generate', 'airetry-', 'agent-mcts', 'agent-astar', 'agent-greedy', 'agent-beam', 'agent-cot', 'session', 'code-fixer']) {
    expect(names.some((n) => n.startsWith(prefix))).toBe(true);
  }
});

test.each(fixtures)('%s replays deterministically', async (file) => {
  const report = await replayHistory(history(file), { workflowBundle: bundle(), workflowId: file });
  expect(report).toMatchObject({ ok: true });
  process.stderr.write(`replay ${file}: ${report.events} events in ${report.ms} ms\n`);
});

test('a history whose recorded decisions differ from the code: the first differing event is named', async () => {
  const tampered = history('agent-mcts.json');
  const evaluations = tampered.events.filter((e: any) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'groveEvaluate');
  const target = evaluations[4];
  target.activityTaskScheduledEventAttributes.activityType.name = 'groveRunTool';
  const report = await replayHistory(tampered, { workflowBundle: bundle(), workflowId: 'tampered' });
  expect(report.divergence).toMatchObject({
    eventId: Number(target.eventId),
    eventType: 'ActivityTaskScheduled',
    recorded: 'activity "groveRunTool" scheduled',
    codeDid: 'scheduled activity "groveEvaluate"',
  });
  expect(describeReplay(report)).toContain(`first decides differently at event ${target.eventId} (ActivityTaskScheduled)`);
});

test('grove replay: a recorded history passes; a deliberately changed workflow is named at its first differing event', async () => {
  const same = await runCli(['replay', '--history', join(DIR, 'generate.json'), '--bundle', bundle().codePath]);
  expect(same.code).toBe(0);
  expect(same.stdout).toMatch(/generate\.json \(generate\): the current code makes the same decisions \(\d+ workflow tasks, \d+ events; replayed in [\d.]+ s\)/);

  const changed = await runCli(['replay', '--history', join(DIR, 'generate.json'), '--workflows', join(ROOT, 'test', 'support', 'changed-workflows.ts'), '--json']);
  expect(changed.code).toBe(1);
  const report = JSON.parse(changed.stdout);
  const firstCommand = history('generate.json').events.find((e: any) => e.upsertWorkflowSearchAttributesEventAttributes);
  expect(report.divergence).toMatchObject({ eventId: Number(firstCommand.eventId), eventType: 'UpsertWorkflowSearchAttributes', codeDid: 'started a timer (a sleep)' });
}, 90_000);

test('grove replay WORKFLOW_ID and --all fetch runs from the server and check each', async () => {
  const taskQueue = await suite.withWorker(async (tq) => {
    const grove = groveClient(suite.env, tq);
    await grove.run('generate', { prompt: 'Say hi!', model: 'echo' }, { workflowId: `${tq}-a` });
    await grove.run('airetry', { prompt: 'Say hi!', model: 'echo', checks: [{ kind: 'contains', value: 'hi' }] }, { workflowId: `${tq}-b` });
    return tq;
  });
  const env = { TEMPORAL_ADDRESS: suite.env.address };
  const one = await runCli(['replay', `${taskQueue}-a`, '--bundle', bundle().codePath], env);
  expect(one.code).toBe(0);
  expect(one.stdout).toContain(`${taskQueue}-a (generate): the current code makes the same decisions`);
  const all = await runCli(['replay', '--all', '--query', `TaskQueue = "${taskQueue}"`, '--bundle', bundle().codePath], env);
  expect(all.code).toBe(0);
  expect(all.stdout.trim().split('\n').pop()).toBe('2 of 2 runs replay with the same decisions');
}, 90_000);
