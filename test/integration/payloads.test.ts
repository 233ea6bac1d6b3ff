import { WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { defineTool } from '../../activities/tools';
import { describeFailure } from '../../client/cli/describe-failure';
import { jsonBytes } from '../../core/payload-limits';
import type { AssistantMessage, Message, ToolMessage } from '../../core/schemas/messages';
import { finalAnswer } from '../../examples/tools';
import { integrationSuite } from '../support/integration-suite';
import { rejection } from '../support/rejection';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Nothing a model sends can stall a run: a 3 MB answer, an answer with 2,000 tool calls, a 3 MB
 * tool output, a result too large to return and an activity result too large to record each end
 * the way the docs say — at once, and in words naming the size and the limit — with the scripted
 * model server sending them.
 */
const suite = integrationSuite('payloads', { maxContextChars: 20_000_000 });
const MB = 1024 * 1024;

const bigOutput = defineTool({
  name: 'big_output',
  description: 'Returns a very long report.',
  parameters: z.object({}),
  run: () => 'r'.repeat(3 * MB),
});

async function withWorker<T>(fn: (taskQueue: string, store: MemoryMessageStore) => Promise<T>): Promise<T> {
  const taskQueue = uniqueTaskQueue('payloads');
  const store = new MemoryMessageStore();
  const worker = await testWorker(suite.env, {
    taskQueue,
    store,
    llm: testLlmConfig(suite.model.baseURL, { defaultModel: 'multiplier-judge' }),
    tools: [bigOutput, finalAnswer, defineTool({ name: 'multiply', description: 'Multiplies.', parameters: z.object({ a: z.number(), b: z.number() }), fast: true, run: ({ a, b }) => a * b })],
    activities: { oversized: async () => 'x'.repeat(3 * MB) },
  });
  return worker.runUntil(fn(taskQueue, store));
}

/** The largest activity result or marker in a run's history. */
async function largestResult(taskQueue: string, workflowId: string): Promise<number> {
  const history = await groveClient(suite.env, taskQueue).temporal.workflow.getHandle(workflowId).fetchHistory();
  return Math.max(
    ...(history.events ?? []).map((e) =>
      Math.max(
        ...(e.activityTaskCompletedEventAttributes?.result?.payloads ?? []).map((p) => p.data?.length ?? 0),
        ...Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((d) => (d.payloads ?? []).map((p) => p.data?.length ?? 0)),
        0,
      ),
    ),
  );
}

test('a 3 MB model answer: the run ends at once with the answer cut and whole in the store', async () => {
  const started = Date.now();
  const { result, store, biggest } = await withWorker(async (taskQueue, store) => {
    const result = await groveClient(suite.env, taskQueue).run('generate', { prompt: 'Say hi!', model: `echo?pad=${3 * MB}` });
    return { result, store, biggest: await largestResult(taskQueue, result.workflowId) };
  });
  expect(Date.now() - started).toBeLessThan(30_000); // before: retried as transient for as long as anyone watched
  expect(result.message.cut).toEqual({ ref: expect.stringMatching(/^[0-9a-f]{32}$/), bytes: expect.any(Number), keptChars: 4000 });
  expect(result.message.cut!.bytes).toBeGreaterThan(3 * MB);
  expect(result.output).toMatch(/^Echo: Say hi! The quick brown fox[\s\S]*\n\n\[grove: this answer was 3\.0 MB, over the 256 KB a message may carry \(the operator's maxInlineMessageBytes\); only its first 4,000 characters are kept here\. The whole answer is message [0-9a-f]{32} in the message store\.\]$/);
  const whole = (await store.get(result.message.cut!.ref)) as AssistantMessage;
  expect(whole.content!.length).toBe(`Echo: Say hi! `.length + 3 * MB);
  expect(biggest).toBeLessThan(64 * 1024);
});

test('a 3 MB answer in airetry fails its checks, saying why, instead of being checked on its first part', async () => {
  const result = await withWorker((taskQueue) =>
    groveClient(suite.env, taskQueue).run('airetry', { prompt: 'Say hi!', model: `echo?pad=${3 * MB}`, config: { maxRetries: 1 }, checks: [{ kind: 'contains', value: 'Echo' }] }),
  );
  expect(result.success).toBe(false);
  expect(result.checks).toEqual([expect.objectContaining({ passed: false })]);
  expect(JSON.stringify(result.tree)).toContain('Your answer was 3.0 MB, more than can be checked; answer much more briefly.');
});

test('an answer with 2,000 tool calls runs 64 of them; one tool message says the rest were dropped', async () => {
  const { result, biggest, history } = await withWorker(async (taskQueue) => {
    const result = await groveClient(suite.env, taskQueue).run('agent', {
      algorithm: 'greedy',
      prompt: 'Multiply everything.',
      tools: ['multiply', 'final_answer'],
      model: 'echo?calls=2000',
      apiKwargs: { max_tokens: 100_000 },
      evaluator: { name: 'llm', model: 'multiplier-judge' },
      maxDepth: 1,
      bFactor: 1,
    });
    const history = await groveClient(suite.env, taskQueue).temporal.workflow.getHandle(result.workflowId).fetchHistory();
    return { result, history, biggest: await largestResult(taskQueue, result.workflowId) };
  });
  expect(result.counters.toolRuns).toBe(64);
  const answer = result.messages.find((m: Message) => m.role === 'assistant') as AssistantMessage;
  expect([answer.tool_calls!.length, answer.cut?.droppedToolCalls]).toEqual([65, 1936]);
  const tools = result.messages.filter((m: Message) => m.role === 'tool') as ToolMessage[];
  expect(tools).toHaveLength(65);
  expect(tools[64]).toEqual({
    role: 'tool',
    tool_call_id: answer.tool_calls![64]!.id,
    content: expect.stringMatching(/^Error: not run\. This answer made 2,000 tool calls and grove ran only the first 64: this call and the 1,935 after it were dropped/),
  });
  // 64 tool runs, not 2,000 (fast tools: local activities, recorded as markers); history stays small.
  const summaries = (history.events ?? []).flatMap((e) => (e.userMetadata?.summary?.data ? [JSON.parse(Buffer.from(e.userMetadata.summary.data).toString()) as string] : []));
  const toolRuns = summaries.filter((s) => s.startsWith('tool multiply for n0')).length;
  expect(toolRuns).toBe(64);
  expect(biggest).toBeLessThan(64 * 1024);
  expect(jsonBytes(history.events)).toBeLessThan(1024 * 1024);
});

test('a 3 MB tool output is cut to what a message may carry, and kept whole in the store', async () => {
  const { result, store } = await withWorker(async (taskQueue, store) => ({
    store,
    result: await groveClient(suite.env, taskQueue).run('agent', {
      algorithm: 'greedy',
      prompt: 'Get the report.',
      tools: ['big_output', 'final_answer'],
      model: 'echo',
      toolChoice: 'required',
      evaluator: { name: 'llm', model: 'multiplier-judge' },
      maxDepth: 1,
      bFactor: 1,
    }),
  }));
  const output = result.messages.find((m: Message) => m.role === 'tool') as ToolMessage;
  expect(output.cut).toMatchObject({ keptChars: 4000 });
  // Its content and its raw output: 3 MB each.
  expect(output.content).toMatch(/\[grove: this tool output was 6\.0 MB, over the 256 KB a message may carry/);
  expect(((await store.get(output.cut!.ref)) as ToolMessage).content).toHaveLength(3 * MB);
});

test('a result too large to return fails the run at once, naming its size and the limit', async () => {
  const err = await withWorker((taskQueue) =>
    rejection(
      groveClient(suite.env, taskQueue).run('generate', {
        messages: [
          { role: 'user', content: 'p'.repeat(1.7 * MB) },
          { role: 'assistant', content: 'Noted.' },
          { role: 'user', content: 'And now?' },
        ],
        model: 'echo?pad=200000',
      }),
    ),
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect(describeFailure(err)).toMatch(/^the generate run's result is 2\.\d MB, over Temporal's 2 MB payload limit: it cannot be returned through Temporal/);
});

test("an activity's result too large to record fails it once, non-retryably, naming the size and the limit", async () => {
  const { err, attempts } = await withWorker(async (taskQueue) => {
    const handle = await groveClient(suite.env, taskQueue).temporal.workflow.start('callOversized', { taskQueue, workflowId: `${taskQueue}-oversized`, workflowExecutionTimeout: 60_000 });
    const err = await rejection(handle.result());
    const history = await handle.fetchHistory();
    return { err, attempts: (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt) };
  });
  expect(describeFailure(err)).toBe("the result of activity oversized is 3.0 MB, over Temporal's 2 MB payload limit: Temporal cannot record it, so it is not retried");
  expect(attempts).toEqual([1]);
});
