import { MockActivityEnvironment } from '@temporalio/testing';
import { createLlmActivities } from '../../../activities/llm/chat';
import { llmConfigFromEnv } from '../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
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

const attempt = (activityId: string, attemptNo: number) =>
  new MockActivityEnvironment({ activityId, attempt: attemptNo, workflowExecution: { workflowId: 'wf', runId: 'run-1' } } as never);

test('a retried attempt of a finished model call returns the recorded reply instead of calling again', async () => {
  const { client, llmChat, input } = setup();
  const first = await attempt('7', 1).run(llmChat, input);
  const retry = await attempt('7', 2).run(llmChat, input);
  expect(retry).toEqual(first);
  expect(client.requests).toHaveLength(1);
  await attempt('8', 1).run(llmChat, input); // another activity is another call
  expect(client.requests).toHaveLength(2);
});

test('outside an activity (in-process runs) every call is made', async () => {
  const { client, llmChat, input } = setup();
  await llmChat(input);
  await llmChat(input);
  expect(client.requests).toHaveLength(2);
});
