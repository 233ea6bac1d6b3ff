import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createLlmActivities } from '../../../activities/llm/chat';
import { llmConfigFromEnv } from '../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { ConversationRefs } from '../../../core/hash/conversation-refs';
import { assistantMessage, toolMessage, userMessage, type Message } from '../../../core/schemas/messages';
import { startModelServer, type ModelServer } from '../../../model-server';

let server: ModelServer;
beforeAll(async () => {
  // About 3,000 tokens of context, as the scripted server counts them.
  server = await startModelServer({ maxContextChars: 12_000 });
});
afterAll(() => server.close());

/** A task and eight tool turns with 4,000-character outputs: ~8,000 tokens, far over the window. */
function longConversation(): Message[] {
  const turns = Array.from({ length: 8 }, (_, i) => [
    assistantMessage(null, { tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'lookup', arguments: `{"page":${i}}` } }] }),
    toolMessage(`c${i}`, `page ${i} `.repeat(560)),
  ]).flat();
  return [userMessage('Summarise the pages.'), ...turns];
}

async function call(contextTokens?: number) {
  const store = new MemoryMessageStore();
  const refs = new ConversationRefs();
  const conversation = longConversation();
  const path = refs.addPath(null, undefined, conversation);
  const config = llmConfigFromEnv({}, { baseURL: server.baseURL, apiKey: 'k', defaultModel: 'echo', contextTokens });
  const { llmChat } = createLlmActivities({ config, store });
  const env = new MockActivityEnvironment({ workflowExecution: { workflowId: 'wf-long', runId: 'r' } }, { logger: new DefaultLogger('ERROR') });
  return env.run(llmChat, { conversation: refs.input(path), params: { max_tokens: 200 } }) as ReturnType<typeof llmChat>;
}

test('without a known window, the provider refuses, and the failure names the run and what to set', async () => {
  const err = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err).toMatchObject({ type: 'GroveContextLengthExceeded', nonRetryable: true });
  expect((err as Error).message).toMatch(/^run wf-long: .*GROVE_CONTEXT_TOKENS/);
});

test('with GROVE_CONTEXT_TOKENS, the oldest tool outputs are dropped before the call and the result says so', async () => {
  const result = await call(3_000);
  expect(result.choices[0]!.message.content).toMatch(/^Echo:/);
  expect(result.compat?.[0]).toMatch(/^context: \d+ old tool output\(s\) elided and 0 message\(s\) left out to fit 3000 tokens$/);
});
