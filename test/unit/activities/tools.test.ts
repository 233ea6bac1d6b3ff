import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { z } from 'zod';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import {
  createToolActivities,
  defineTool,
  toolSpec,
  ToolDefinitionError,
  type AnyToolDefinition,
} from '../../../activities/tools';
import { ConversationRefs } from '../../../core/hash/conversation-refs';
import { messageRef } from '../../../core/hash/refs';
import { assistantMessage, messageText, userMessage, type Message, type ToolCall } from '../../../core/schemas/messages';
import { exampleTools } from '../../../examples/tools';
import { rejection } from '../../support/rejection';

const PROMPT = 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).';

/** `env.run` with the activity's own result type (its typings infer `unknown`). */
function inActivity<A extends unknown[], R>(env: MockActivityEnvironment, fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  return env.run(fn, ...args) as Promise<R>;
}

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => a + b,
});

function call(name: string, args: unknown, id = 'call_1'): ToolCall {
  return { id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } };
}

/** A store, a root trajectory [user prompt] and the activities for `tools`. */
function setup(tools: AnyToolDefinition[] = exampleTools, opts: { heartbeatIntervalMs?: number } = {}) {
  const store = new MemoryMessageStore();
  const refs = new ConversationRefs();
  const root = refs.addPath(null, undefined, [userMessage(PROMPT)]);
  const activities = createToolActivities({ tools, store, ...opts });
  const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') }); // activities failing on purpose log warnings
  const runTool = (c: ToolCall, offered = tools.map((t) => t.name), path = root) =>
    inActivity(env, activities.groveRunTool, { trajectory: refs.input(path), call: c, offered });
  return { store, refs, root, activities, env, runTool };
}

describe('defineTool / toolSpec', () => {
  it('sends the JSON Schema of the zod parameters, without $schema', () => {
    const [multiply, finalAnswer] = exampleTools;
    expect(toolSpec(multiply)).toEqual({
      name: 'multiply',
      description: 'Multiplies two numbers and returns the result number.',
      parameters: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'The number to multiply.' },
          b: { type: 'number', description: 'The number to multiply by.' },
        },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      strict: true,
      isTerminal: false,
      hasIsActive: false,
      fast: true,
    });
    expect(toolSpec(finalAnswer)).toMatchObject({ name: 'final_answer', strict: false, isTerminal: true, hasIsActive: false });
    expect(toolSpec(finalAnswer).parameters).toEqual({
      type: 'object',
      properties: { answer: { type: ['number', 'string'], description: 'The final answer: a number or a short text.' } },
      required: ['answer'],
      additionalProperties: false,
    });
  });

  it('defaults strict and isTerminal to false, and reports isActive', () => {
    const tool = defineTool({ ...add, isActive: () => true });
    expect(toolSpec(add)).toMatchObject({ strict: false, isTerminal: false, hasIsActive: false });
    expect(toolSpec(tool).hasIsActive).toBe(true);
  });

  it('keeps optional properties out of `required` when not strict', () => {
    const tool = defineTool({ ...add, name: 'opt', parameters: z.object({ a: z.number(), note: z.string().optional() }) });
    expect(toolSpec(tool).parameters).toMatchObject({ required: ['a'] });
  });

  it('fast is told to the workflow, except on a tool that needs approval (it never runs unasked)', () => {
    const base = { description: 'd', parameters: z.object({ a: z.number() }), run: () => 1 };
    expect(toolSpec(defineTool({ ...base, name: 'quick', fast: true })).fast).toBe(true);
    expect(toolSpec(defineTool({ ...base, name: 'plain' }))).not.toHaveProperty('fast');
    expect(toolSpec(defineTool({ ...base, name: 'pay', fast: true, requiresApproval: true }))).not.toHaveProperty('fast');
    expect(() => defineTool({ ...base, name: 't', fast: 'yes' as unknown as boolean })).toThrow(/tool "t": fast must be a boolean/);
  });

  const base = { description: 'd', parameters: z.object({ a: z.number() }), run: () => 1 };
  it.each([
    ['a name with a space', { ...base, name: 'web search' }, /tool "web search": the name must match/],
    ['a name of 65 characters', { ...base, name: 'x'.repeat(65) }, /the name must match/],
    ['an empty description', { ...base, name: 't', description: ' ' }, /tool "t": needs a description/],
    ['no run function', { ...base, name: 't', run: undefined }, /needs a run\(args, ctx\) function/],
    ['parameters that are not zod', { ...base, name: 't', parameters: { type: 'object' } }, /parameters must be a zod schema/],
    ['parameters that are not an object', { ...base, name: 't', parameters: z.number() }, /parameters must be a zod object/],
    ['parameters JSON Schema cannot express', { ...base, name: 't', parameters: z.object({ when: z.date() }) }, /cannot be written as JSON Schema \(Date cannot be represented/],
    [
      'strict with an optional property',
      { ...base, name: 't', strict: true, parameters: z.object({ a: z.number(), note: z.string().optional() }) },
      /tool "t": strict is set but parameters.note is optional/,
    ],
    [
      'strict with an optional property in a nested object',
      { ...base, name: 't', strict: true, parameters: z.object({ items: z.array(z.object({ x: z.number().optional() })) }) },
      /strict is set but parameters.items\[\].x is optional/,
    ],
    [
      'strict with extra properties allowed',
      { ...base, name: 't', strict: true, parameters: z.looseObject({ a: z.number() }) },
      /strict is set but parameters allows extra properties/,
    ],
  ])('rejects %s at definition time', (_what, def, message) => {
    let thrown: unknown;
    try {
      defineTool(def as never);
    } catch (err) {
      thrown = err;
    }
    expect(ToolDefinitionError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).name).toBe('GroveInvalidToolDefinition');
    expect((thrown as Error).message).toMatch(message);
  });

  it('accepts strict tools whose properties are all required (nullable instead of optional)', () => {
    const tool = defineTool({ ...base, name: 't', strict: true, parameters: z.object({ a: z.number(), note: z.string().nullable() }) });
    expect(toolSpec(tool).strict).toBe(true);
  });
});

describe('createToolActivities', () => {
  it('refuses two tools with one name', () => {
    expect(() => createToolActivities({ tools: [add, { ...add, description: 'another' }], store: new MemoryMessageStore() })).toThrow(
      'two tools are named "add"; tool names must be unique on a worker',
    );
  });

  it('checks tools that were not made with defineTool', () => {
    expect(() => createToolActivities({ tools: [{ ...add, name: 'bad name' }], store: new MemoryMessageStore() })).toThrow(ToolDefinitionError);
  });
});

describe('groveDescribeTools', () => {
  it('returns the specs in the order asked', async () => {
    const { env, activities } = setup([...exampleTools, add]);
    const specs = await inActivity(env, activities.groveDescribeTools, { names: ['final_answer', 'add', 'multiply'] });
    expect(specs.map((s) => s.name)).toEqual(['final_answer', 'add', 'multiply']);
    expect(specs[0]).toEqual(toolSpec(exampleTools[1]));
  });

  it('fails non-retryably on a tool the worker does not have, listing those it has', async () => {
    const { env, activities } = setup();
    const err = await rejection(inActivity(env, activities.groveDescribeTools, { names: ['multiply', 'web_search'] }));
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({
      type: 'GroveUnknownTool',
      nonRetryable: true,
      message: 'unknown tool "web_search": this worker has multiply, final_answer',
    });
  });
});

describe('groveActiveTools', () => {
  it('asks isActive with the trajectory; tools without it are always active', async () => {
    const seen: Message[][] = [];
    const afterFirstCall = defineTool({
      ...add,
      name: 'after_first_call',
      isActive: (trajectory) => {
        seen.push(trajectory);
        return trajectory.some((m) => m.role === 'tool');
      },
    });
    const never = defineTool({ ...add, name: 'never', isActive: async () => false });
    const { env, activities, refs, root } = setup([...exampleTools, afterFirstCall, never]);
    const names = ['after_first_call', 'multiply', 'never', 'final_answer'];

    expect(await inActivity(env, activities.groveActiveTools, { names, trajectory: refs.input(root) })).toEqual(['multiply', 'final_answer']);
    expect(seen).toEqual([[userMessage(PROMPT)]]);

    const step = refs.addPath(root, undefined, [
      assistantMessage(null, { tool_calls: [call('multiply', { a: 1, b: 2 })] }),
      { role: 'tool', tool_call_id: 'call_1', content: '2' },
    ]);
    expect(await inActivity(env, activities.groveActiveTools, { names, trajectory: refs.input(step) })).toEqual([
      'after_first_call',
      'multiply',
      'final_answer',
    ]);
  });

  it('fails with GroveUnknownTool on a name the worker does not have', async () => {
    const { env, activities, refs, root } = setup();
    const err = await rejection(inActivity(env, activities.groveActiveTools, { names: ['nope'], trajectory: refs.input(root) }));
    expect(err).toMatchObject({ type: 'GroveUnknownTool', nonRetryable: true });
  });

  it('stores what the trajectory input carries, so the ref alone works afterwards', async () => {
    const { env, activities, refs, root, store } = setup();
    const input = refs.input(root);
    await inActivity(env, activities.groveActiveTools, { names: ['multiply'], trajectory: input });
    refs.markStored(input);
    expect(refs.input(root)).toEqual({ path: root });
    expect(await store.get(root)).toBeDefined();
    expect(await inActivity(env, activities.groveActiveTools, { names: ['multiply'], trajectory: { path: root } })).toEqual(['multiply']);
  });
});

describe('groveRunTool', () => {
  it('runs a call, formats the output and stores the tool message under its ref', async () => {
    const { runTool, store } = setup();
    const result = await runTool(call('multiply', { a: 9418.343, b: 8.11 }, 'call_x'));
    const product = 9418.343 * 8.11;
    expect(result.isError).toBe(false);
    expect(result.message).toEqual({ role: 'tool', tool_call_id: 'call_x', content: String(product), rawOutput: product });
    expect(result.ref).toBe(messageRef(result.message));
    expect(await store.get(result.ref)).toEqual(result.message);
  });

  it('shows the model formatOutput and keeps the raw output', async () => {
    const verbose = defineTool({
      name: 'multiply',
      description: 'Multiplies two numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => ({ a, b, result: a * b }),
      formatOutput: ({ a, b, result }) => `${a} * ${b} = ${result}`,
    });
    const { runTool } = setup([verbose]);
    const { message } = await runTool(call('multiply', { a: 2, b: 3 }));
    expect(message.content).toBe('2 * 3 = 6');
    expect(message.rawOutput).toEqual({ a: 2, b: 3, result: 6 });
  });

  it('shows strings as they are and other outputs as JSON by default', async () => {
    const echo = defineTool({ name: 'echo', description: 'd', parameters: z.object({ s: z.string() }), run: ({ s }) => s });
    const obj = defineTool({ name: 'obj', description: 'd', parameters: z.object({}), run: () => ({ ok: true, list: [1, 'two'] }) });
    const nothing = defineTool({ name: 'nothing', description: 'd', parameters: z.object({}), run: () => undefined });
    const { runTool } = setup([echo, obj, nothing]);
    expect((await runTool(call('echo', { s: 'hi "there"' }))).message).toMatchObject({ content: 'hi "there"', rawOutput: 'hi "there"' });
    expect((await runTool(call('obj', {}))).message).toMatchObject({ content: '{"ok":true,"list":[1,"two"]}', rawOutput: { ok: true, list: [1, 'two'] } });
    const none = (await runTool(call('nothing', {}))).message;
    expect(none).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'undefined' });
  });

  it('keeps what rawOutput picks, and sends the JSON Schema given as jsonSchema (parameters then only check)', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a city up.',
      parameters: z.object({ city: z.string() }),
      jsonSchema: { type: 'object', properties: { city: { type: 'string', description: 'A city' } }, required: ['city'] },
      run: ({ city }) => ({ city, population: 1, blob: 'x'.repeat(100) }),
      formatOutput: ({ city }) => city,
      rawOutput: ({ city, population }) => ({ city, population }),
    });
    expect(toolSpec(lookup).parameters).toEqual({ type: 'object', properties: { city: { type: 'string', description: 'A city' } }, required: ['city'] });
    const { runTool } = setup([lookup]);
    expect((await runTool(call('lookup', { city: 'Oslo' }))).message).toMatchObject({ content: 'Oslo', rawOutput: { city: 'Oslo', population: 1 } });
    expect((await runTool(call('lookup', { town: 'Oslo' }))).message.content).toMatch(/^Error: invalid arguments for lookup: city:/);
  });

  it('cuts an output longer than maxOutputChars (saying so) and leaves out a rawOutput that does not fit', async () => {
    const long = defineTool({ name: 'long', description: 'd', parameters: z.object({}), run: () => 'y'.repeat(50) });
    const store = new MemoryMessageStore();
    const refs = new ConversationRefs();
    const root = refs.addPath(null, undefined, [userMessage(PROMPT)]);
    const activities = createToolActivities({ tools: [long], store, maxOutputChars: 20 });
    const result = (await new MockActivityEnvironment().run(activities.groveRunTool, { trajectory: refs.input(root), call: call('long', {}), offered: ['long'] })) as unknown as { message: { content: string; cut: { ref: string } } };
    const ref = result.message.cut.ref;
    expect(result.message).toEqual({ role: 'tool', tool_call_id: 'call_1', content: `${'y'.repeat(20)}\n[output cut: the first 20 of 50 characters; the whole output is message ${ref} in the message store]`, cut: { ref, bytes: expect.any(Number), keptChars: 20 } });
    // Nothing is lost: the whole output is in the store.
    expect(((await store.get(ref)) as { content: string }).content).toBe('y'.repeat(50));
  });

  it('lets an ApplicationFailure a tool throws on purpose fail the activity (for Temporal to retry), unlike any other throw', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'd',
      parameters: z.object({}),
      run: () => {
        throw ApplicationFailure.retryable('the service is down', 'ServiceDown');
      },
    });
    const { runTool } = setup([flaky]);
    expect(await rejection(runTool(call('flaky', {})))).toMatchObject({ type: 'ServiceDown', nonRetryable: false, message: 'the service is down' });
  });

  it('keeps rawOutput JSON-safe: values that do not survive a JSON round trip are stored as text', async () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const when = new Date(Date.UTC(2024, 0, 2));
    const outputs: Record<string, unknown> = { date: when, nan: { v: NaN }, big: 10n, point: new Point(1, 2) };
    const tool = defineTool({
      name: 'give',
      description: 'd',
      parameters: z.object({ what: z.string() }),
      run: ({ what }) => outputs[what],
      formatOutput: () => 'ok',
    });
    const { runTool, store } = setup([tool]);
    const raw = async (what: string) => {
      const r = await runTool(call('give', { what }));
      expect(await store.get(r.ref)).toEqual(r.message);
      return r.message.rawOutput;
    };
    expect(await raw('date')).toBe(String(when));
    expect(await raw('nan')).toBe('[object Object]');
    expect(await raw('big')).toBe('10');
    const point = await raw('point');
    expect(point).toEqual({ x: 1, y: 2 });
    expect(point).not.toBeInstanceOf(Point);
  });

  it('treats empty arguments as an empty object (some endpoints send "" for no arguments)', async () => {
    const ping = defineTool({ name: 'ping', description: 'd', parameters: z.object({}), run: () => 'pong' });
    const { runTool } = setup([ping]);
    expect((await runTool(call('ping', ''))).message.content).toBe('pong');
  });

  describe('answers what the model got wrong with an error message instead of failing', () => {
    const cases: [string, ToolCall, string][] = [
      ['an unknown tool', call('multiplyy', { a: 1, b: 2 }), 'Error: unknown tool "multiplyy". Available tools: multiply, final_answer.'],
      ['arguments that are not an object', call('multiply', '5'), 'Error: invalid arguments for multiply: Invalid input: expected object, received number'],
      ['a missing argument', call('multiply', { a: 1 }), 'Error: invalid arguments for multiply: b: Invalid input: expected number, received undefined'],
      [
        'arguments of the wrong type',
        call('multiply', { a: 'nine' }),
        'Error: invalid arguments for multiply: a: Invalid input: expected number, received string; b: Invalid input: expected number, received undefined',
      ],
    ];
    it.each(cases)('%s', async (_what, c, content) => {
      const { runTool, store } = setup();
      const result = await runTool(c);
      expect(result).toEqual({ message: { role: 'tool', tool_call_id: 'call_1', content }, ref: messageRef(result.message), isError: true });
      expect(await store.get(result.ref)).toEqual(result.message);
    });

    it('arguments that are not JSON (with the parser message)', async () => {
      const { runTool } = setup();
      const broken = '{"a": 9418.343, "b": ';
      let parserMessage = '';
      try {
        JSON.parse(broken);
      } catch (err) {
        parserMessage = (err as Error).message;
      }
      expect(parserMessage).not.toBe('');
      const result = await runTool(call('multiply', broken));
      expect(result.isError).toBe(true);
      expect(result.message.content).toBe(`Error: the arguments for multiply are not valid JSON (${parserMessage})`);
    });

    it('a tool the worker has but that was not offered for this turn', async () => {
      const { runTool } = setup();
      const result = await runTool(call('final_answer', { answer: 1 }), ['multiply']);
      expect(result.message.content).toBe('Error: unknown tool "final_answer". Available tools: multiply.');
      expect(result.isError).toBe(true);
    });

    it('nested argument paths', async () => {
      const sum = defineTool({ name: 'sum', description: 'd', parameters: z.object({ xs: z.array(z.number()) }), run: ({ xs }) => xs.length });
      const { runTool } = setup([sum]);
      const result = await runTool(call('sum', { xs: [1, 'two'] }));
      expect(result.message.content).toBe('Error: invalid arguments for sum: xs[1]: Invalid input: expected number, received string');
    });

    it('a tool that throws (an Error, or anything else)', async () => {
      const boom = defineTool({
        name: 'boom',
        description: 'd',
        parameters: z.object({ how: z.enum(['error', 'string', 'async']) }),
        run: async ({ how }) => {
          if (how === 'error') throw new RangeError('the numbers are too large');
          if (how === 'string') throw 'plain text';
          await Promise.resolve();
          throw new Error('');
        },
      });
      const { runTool } = setup([boom]);
      expect((await runTool(call('boom', { how: 'error' }))).message).toEqual({
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'Error: boom failed: the numbers are too large',
      });
      expect((await runTool(call('boom', { how: 'string' }))).message.content).toBe('Error: boom failed: plain text');
      const r = await runTool(call('boom', { how: 'async' }));
      expect(r).toMatchObject({ isError: true, message: { content: 'Error: boom failed: Error' } });
    });

    it('a formatOutput that throws', async () => {
      const tool = defineTool({
        name: 'fmt',
        description: 'd',
        parameters: z.object({}),
        run: () => 1,
        formatOutput: () => {
          throw new Error('cannot format');
        },
      });
      const { runTool } = setup([tool]);
      expect((await runTool(call('fmt', {}))).message.content).toBe('Error: fmt failed: cannot format');
    });
  });

  it('gives run the trajectory before the call, as a private copy', async () => {
    const seen: Message[][] = [];
    const inspect = defineTool({
      name: 'inspect',
      description: 'd',
      parameters: z.object({}),
      run: (_args, ctx) => {
        seen.push(structuredClone(ctx.trajectory));
        const first = ctx.trajectory[0];
        (first as { content: string }).content = 'changed by the tool';
        return ctx.trajectory.map((m) => `${m.role}: ${messageText(m)}`).join('\n');
      },
    });
    const { runTool, refs, root, store } = setup([inspect]);
    const step = refs.addPath(root, undefined, [
      assistantMessage(null, { tool_calls: [call('inspect', {}, 'c0')] }),
      { role: 'tool', tool_call_id: 'c0', content: 'first result' },
    ]);
    const result = await runTool(call('inspect', {}, 'c1'), ['inspect'], step);
    expect(seen).toHaveLength(1);
    expect(seen[0].map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(result.message.content).toBe('user: changed by the tool\nassistant: \ntool: first result');
    expect(await refs.resolve(root)).toEqual([userMessage(PROMPT)]);
    expect([...store.entries.values()].map((e) => e.value)).toContainEqual(userMessage(PROMPT));
    expect([...store.entries.values()].map((e) => e.value)).not.toContainEqual(userMessage('changed by the tool'));
  });

  it('heartbeats while a slow tool runs', async () => {
    let heartbeats = 0;
    let enough!: () => void;
    const threeBeats = new Promise<void>((resolve) => (enough = resolve));
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      parameters: z.object({}),
      // Finishes only after the activity heartbeated three times while it was running.
      run: async () => {
        await threeBeats;
        return 'done';
      },
    });
    const { runTool, env } = setup([slow], { heartbeatIntervalMs: 5 });
    const details: unknown[] = [];
    env.on('heartbeat', (d: unknown) => {
      details.push(d);
      if (++heartbeats === 3) enough();
    });
    const result = await runTool(call('slow', {}, 'call_slow'));
    expect(result.message.content).toBe('done');
    expect(details.length).toBeGreaterThanOrEqual(3);
    expect(details[0]).toEqual({ tool: 'slow', callId: 'call_slow' });
  });

  it('passes the cancellation signal; a cancelled activity fails as cancelled, not with a tool message', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const waits = defineTool({
      name: 'waits',
      description: 'd',
      parameters: z.object({}),
      run: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          expect(ctx.signal).toBeDefined();
          ctx.signal!.addEventListener('abort', () => reject(new Error('aborted by the signal')));
          started();
        }),
    });
    const { runTool, env } = setup([waits]);
    const pending = rejection(runTool(call('waits', {})));
    await running;
    env.cancel();
    expect(await pending).toBeInstanceOf(CancelledFailure);
  });

  it('fails (for Temporal to handle) when the store lacks the trajectory', async () => {
    const { root } = setup();
    const { activities, env } = setup(); // a second worker whose store never saw that trajectory
    const err = await rejection(inActivity(env, activities.groveRunTool, { trajectory: { path: root }, call: call('multiply', { a: 1, b: 2 }), offered: ['multiply'] }));
    expect(err).toMatchObject({ type: 'GroveStoreMiss', nonRetryable: true });
  });
});
