import { MockActivityEnvironment } from '@temporalio/testing';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { createToolActivities, toolSpec } from '../../../activities/tools';
import { ConversationRefs } from '../../../core/hash/conversation-refs';
import type { Ref } from '../../../core/hash/refs';
import { assistantMessage, userMessage, type Message, type ToolCall } from '../../../core/schemas/messages';
import { exampleTools, finalAnswer, multiply } from '../../../examples/tools';
import { multiplicationPlan, toolResultNumber } from '../../../model-server/policies/multiplication-plan';
import { multiplierPolicy } from '../../../model-server/policies/multiplier';
import type { ChatRequest } from '../../../model-server/types';

const PROMPT = 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).';

/** `env.run` with the activity's own result type (its typings infer `unknown`). */
function inActivity<A extends unknown[], R>(env: MockActivityEnvironment, fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  return env.run(fn, ...args) as Promise<R>;
}

function setup() {
  const store = new MemoryMessageStore();
  const refs = new ConversationRefs();
  const root = refs.addPath(null, undefined, [userMessage(PROMPT)]);
  const activities = createToolActivities({ tools: exampleTools, store });
  const env = new MockActivityEnvironment();
  const run = (path: Ref, c: ToolCall) =>
    inActivity(env, activities.groveRunTool, { trajectory: refs.input(path), call: c, offered: ['multiply', 'final_answer'] });
  return { refs, root, env, activities, run };
}

const call = (name: string, args: unknown, id = 'call_1'): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

describe('example tools', () => {
  it('multiply computes 9418.343 * 8.11 and the model reads the number back', async () => {
    const { run, root } = setup();
    const { message, isError } = await run(root, call('multiply', { a: 9418.343, b: 8.11 }));
    expect(isError).toBe(false);
    expect(message.rawOutput).toBe(9418.343 * 8.11);
    expect(message.content).toBe('76382.76173');
    expect(toolResultNumber(message.content)).toBe(9418.343 * 8.11);
  });

  it('final_answer is terminal and returns the answer unchanged (number or text)', async () => {
    expect(toolSpec(finalAnswer)).toMatchObject({ name: 'final_answer', isTerminal: true });
    expect(toolSpec(multiply).isTerminal).toBe(false);
    const { run, root } = setup();
    expect((await run(root, call('final_answer', { answer: 1.5e12 }))).message).toMatchObject({ content: '1500000000000', rawOutput: 1.5e12 });
    expect((await run(root, call('final_answer', { answer: 'forty-two' }))).message).toMatchObject({ content: 'forty-two', rawOutput: 'forty-two' });
  });

  it('the scripted multiplier model solves the quickstart task with them', async () => {
    const { refs, root, env, activities, run } = setup();
    const specs = await inActivity(env, activities.groveDescribeTools, { names: ['multiply', 'final_answer'] });
    const tools = specs.map((s) => ({
      type: 'function' as const,
      function: { name: s.name, description: s.description, parameters: s.parameters, strict: s.strict },
    }));
    let path = root;
    let conversation: Message[] = [userMessage(PROMPT)];
    const called: string[] = [];
    let answer: unknown;
    for (let turn = 0; turn < 10 && answer === undefined; turn++) {
      const request = { model: 'multiplier', messages: conversation, tools } as ChatRequest;
      const [reply] = multiplierPolicy.respond(request, { n: 1, options: {}, rng: () => () => 0.5 });
      expect(reply.toolCalls).toHaveLength(1);
      const [tc] = reply.toolCalls!;
      const toolCall = call(tc.name, tc.arguments, `call_${turn}`);
      const { message, isError } = await run(path, toolCall);
      expect(isError).toBe(false);
      called.push(tc.name);
      if (specs.find((s) => s.name === tc.name)!.isTerminal) answer = message.rawOutput;
      const added = [assistantMessage(null, { tool_calls: [toolCall] }), message];
      path = refs.addPath(path, undefined, added);
      conversation = [...conversation, ...added];
    }
    expect(called).toEqual(['multiply', 'multiply', 'multiply', 'multiply', 'multiply', 'final_answer']);
    expect(answer).toBe(multiplicationPlan().answer);
    expect(await refs.resolve(path)).toEqual(conversation);
  });
});
