import { randomUUID } from 'node:crypto';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { quickstartInput, searchInProcess } from '../../bench/lib/in-process-agent';
import { integrationSuite } from '../support/integration-suite';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';
import { colorGameInput } from '../support/inputs';

/**
 * What the message store may lose, a run recovers from its history; and what a run paid for, its
 * descendants (a reset, a resume) get back without paying again.
 */
const suite = integrationSuite('store-recovery');

/** A store that never finds anything it was given: a wiped folder, or one on another host. */
class AmnesicStore extends MemoryMessageStore {
  override async get() {
    return undefined;
  }
}

const colorInput = colorGameInput({ seed: 5 });

const completed = (workflowId: string) =>
  suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`) && r.outcome === 'completed').length;

test('an agent whose store keeps nothing still finishes, from its history, with the same result', async () => {
  const spec = quickstartInput({ model: 'multiplier?p=0.2&guess=0.3' });
  const taskQueue = uniqueTaskQueue('amnesic-agent');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), store: new AmnesicStore() });
  const { result, history } = await worker.runUntil(async () => {
    const handle = await groveClient(suite.env, taskQueue).start('agent', spec);
    return { result: await handle.result(), history: await handle.fetchHistory() };
  });
  const local = await searchInProcess(spec);
  if (local.handover) throw new Error('unexpected handover');
  expect(result.tree).toEqual(local.state.tree.toJSON());
  expect(result.messages).toEqual(local.messages);
  // Recovered inside each activity: no activity failed for it.
  const failures = (history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes);
  expect(failures).toEqual([]);
});

async function resetToFirstTask(workflowId: string): Promise<void> {
  const handle = suite.env.client.workflow.getHandle(workflowId);
  const { runId } = await handle.describe();
  const history = await handle.fetchHistory();
  const firstTask = (history.events ?? []).find((e) => e.workflowTaskCompletedEventAttributes)!;
  await suite.env.client.workflowService.resetWorkflowExecution({
    namespace: 'default',
    workflowExecution: { workflowId, runId },
    workflowTaskFinishEventId: firstTask.eventId,
    reason: 'test: reset to the first workflow task',
    requestId: randomUUID(),
  });
}

test.each([
  ['agent', () => quickstartInput({ model: 'multiplier?p=0.2&guess=0.3' })],
  ['airetry', () => colorInput],
] as const)('%s: a run reset to its first workflow task pays for no call again and ends the same', async (kind, makeInput) => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const first = await grove.run(kind, makeInput() as never);
    const paid = completed(first.workflowId);
    expect(paid).toBeGreaterThanOrEqual(3);

    await resetToFirstTask(first.workflowId);
    const again = (await suite.env.client.workflow.getHandle(first.workflowId).result()) as typeof first;
    expect(completed(first.workflowId)).toBe(paid);
    expect(again.tree).toEqual(first.tree);
  });
});

test('an unrelated run with the same input samples afresh, unless both opt into the shared cache', async () => {
  const shared = { ...colorInput, llm: { reuse: 'shared' as const } };
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const a = await grove.run('airetry', colorInput);
    const b = await grove.run('airetry', colorInput);
    expect(completed(b.workflowId)).toBe(completed(a.workflowId));

    const c = await grove.run('airetry', shared);
    const d = await grove.run('airetry', shared);
    expect(completed(c.workflowId)).toBeGreaterThan(0);
    expect(completed(d.workflowId)).toBe(0);
    expect(d.tree).toEqual(c.tree);
  });
});
