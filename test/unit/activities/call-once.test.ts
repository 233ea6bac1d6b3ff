import { MockActivityEnvironment } from '@temporalio/testing';
import { createLlmActivities } from '../../../activities/llm/chat';
import { llmConfigFromEnv } from '../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { CallLedger } from '../../../core/hash/call-ledger';
import { ConversationRefs } from '../../../core/hash/conversation-refs';
import { userMessage } from '../../../core/schemas/messages';
import { inProcessOpenAI } from '../../../model-server';

function setup() {
  const client = inProcessOpenAI();
  const store = new MemoryMessageStore();
  const { llmChat } = createLlmActivities({ config: llmConfigFromEnv({}, { baseURL: 'http://x/v1', apiKey: 'k', defaultModel: 'echo' }), store, client });
  const refs = new ConversationRefs();
  const input = { conversation: refs.input(refs.addPath(null, undefined, [userMessage('hi')])) };
  return { client, store, llmChat, input };
}

const attempt = (activityId: string, attemptNo: number, runId = 'run-1', workflowId = 'wf') =>
  new MockActivityEnvironment({ activityId, attempt: attemptNo, workflowExecution: { workflowId, runId } } as never);

test('a retried attempt of a finished model call returns the recorded reply instead of calling again', async () => {
  const { client, llmChat, input } = setup();
  const first = await attempt('7', 1).run(llmChat, input);
  const retry = await attempt('7', 2).run(llmChat, input);
  expect(retry).toEqual(first);
  expect(client.requests).toHaveLength(1);
  await attempt('8', 1).run(llmChat, input); // another activity is another call
  expect(client.requests).toHaveLength(2);
});

test('with a ledger key, a descendant run (a reset: new run id, other activity ids) gets the result back', async () => {
  const { client, store, llmChat, input } = setup();
  const keyed = new CallLedger(0).keyed('llmChat', input);
  const first = await attempt('3', 1, 'run-1').run(llmChat, keyed);
  expect(await attempt('11', 1, 'run-2').run(llmChat, keyed)).toEqual(first);
  expect(client.requests).toHaveLength(1);
  expect([...store.calls.keys()]).toEqual([`wf/${keyed.callKey}`]);
  // Another workflow (an unrelated run) asks afresh; the shared cache serves any workflow.
  await attempt('3', 1, 'run-9', 'other-wf').run(llmChat, keyed);
  expect(client.requests).toHaveLength(2);
  const shared = new CallLedger(0).keyed('llmChat', input, 'shared');
  const a = await attempt('1', 1, 'r', 'wf-a').run(llmChat, shared);
  expect(await attempt('5', 1, 'r', 'wf-b').run(llmChat, shared)).toEqual(a);
  expect(client.requests).toHaveLength(3);
});

test('a key that does not match its request is not trusted (the call is made, under the activity identity)', async () => {
  const { client, store, llmChat, input } = setup();
  const forged = { ...input, model: 'echo', callKey: new CallLedger(0).key('llmChat', { ...input, model: 'gpt-x' }) };
  await attempt('1', 1).run(llmChat, forged);
  await attempt('2', 1).run(llmChat, forged);
  expect(client.requests).toHaveLength(2);
  expect([...store.calls.keys()].every((k) => k.startsWith('wf/run-1/'))).toBe(true);
});

test('outside an activity (in-process runs) every call is made', async () => {
  const { client, llmChat, input } = setup();
  await llmChat(input);
  await llmChat(input);
  expect(client.requests).toHaveLength(2);
});
