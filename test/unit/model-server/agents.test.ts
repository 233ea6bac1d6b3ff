/**
 * The Saplings quickstart agent (multiplier), its judge, and the classifier, driven the way
 * grove's agents drive them: call the model, run every tool call, append the results.
 */
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { type Harness, startHarness } from './helpers';
import { multiplicationPlan, parseChoices } from '../../../model-server';

const TASK = 'Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).';
const multiplyTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'multiply',
    description: 'Multiplies two numbers and returns the result number.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
};
const finalTool: ChatCompletionTool = {
  type: 'function',
  function: { name: 'final_answer', parameters: { type: 'object', properties: { answer: { type: 'number' } } } },
};

/** Runs a tool like a Saplings tool would: numbers multiply, anything else is an error text. */
function runTool(name: string, rawArgs: string): string {
  let args: { a?: unknown; b?: unknown; answer?: unknown };
  try {
    args = JSON.parse(rawArgs);
  } catch {
    return 'Error: arguments are not valid JSON';
  }
  if (name === 'final_answer') return String(args.answer);
  if (name !== 'multiply') return `Error: unknown tool ${name}`;
  if (typeof args.a !== 'number' || typeof args.b !== 'number') return 'Error: invalid arguments, a and b must be numbers';
  return String(args.a * args.b);
}

interface Run {
  answer?: number;
  text?: string;
  messages: ChatCompletionMessageParam[];
  modelCalls: number;
  toolCalls: { name: string; args: string }[];
}

/** A chain-of-thought agent that executes ALL tool calls of each message. */
async function runAgent(
  client: OpenAI,
  model: string,
  opts: { tools?: ChatCompletionTool[]; parallel?: boolean; maxSteps?: number } = {},
): Promise<Run> {
  const tools = opts.tools ?? [multiplyTool, finalTool];
  const run: Run = { messages: [{ role: 'user', content: TASK }], modelCalls: 0, toolCalls: [] };
  for (let step = 0; step < (opts.maxSteps ?? 20); step++) {
    run.modelCalls++;
    const r = await client.chat.completions.create({
      model,
      messages: run.messages,
      tools,
      ...(opts.parallel !== undefined ? { parallel_tool_calls: opts.parallel } : {}),
    });
    const msg = r.choices[0].message;
    run.messages.push(msg);
    if (!msg.tool_calls || msg.tool_calls.length === 0) {
      run.text = msg.content ?? '';
      return run;
    }
    let done = false;
    for (const tc of msg.tool_calls) {
      if (tc.type !== 'function') throw new Error('expected function calls');
      run.toolCalls.push({ name: tc.function.name, args: tc.function.arguments });
      const out = runTool(tc.function.name, tc.function.arguments);
      run.messages.push({ role: 'tool', tool_call_id: tc.id, content: out });
      if (tc.function.name === 'final_answer') {
        run.answer = Number(out);
        done = true;
      }
    }
    if (done) return run;
  }
  return run;
}

describe('multiplier (Saplings quickstart)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  const plan = multiplicationPlan();

  it('multiplicationPlan gives the correct numbers per step', () => {
    expect(plan.steps.map((s) => s.key)).toEqual(['x', 'y', 'xy', 'x2', 'result']);
    expect(plan.steps[0].value).toBe(9418.343 * 8.11);
    expect(plan.steps[1]).toMatchObject({ a: 2, b: plan.steps[0].value });
    const x = plan.steps[0].value;
    expect(plan.answer).toBe(x * (2 * x) * (x * x));
  });

  it('listens: once its prompt carries reflections it errs less (listens=1: not at all), and not before', async () => {
    const ask = (system?: string) =>
      h.client.chat.completions.create({
        model: 'multiplier?p=1&listens=1',
        messages: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: TASK }],
        tools: [multiplyTool, finalTool],
        n: 4,
      });
    const first = (r: Awaited<ReturnType<typeof ask>>) => r.choices.map((c) => (c.message.tool_calls?.[0] as { function: { name: string; arguments: string } }).function);
    const right = { name: 'multiply', arguments: JSON.stringify({ a: plan.steps[0].a, b: plan.steps[0].b }) };
    expect(first(await ask('You use tools.'))).not.toContainEqual(right);
    expect(first(await ask('You use tools.\n\nReflections on earlier failed attempts (avoid repeating these mistakes):\n- check the operands'))).toEqual([right, right, right, right]);
  });

  it('solves the task step by step and calls final_answer', async () => {
    const run = await runAgent(h.client, 'multiplier');
    expect(run.answer).toBe(plan.answer);
    expect(run.modelCalls).toBe(6);
    expect(run.toolCalls.map((c) => c.name)).toEqual(['multiply', 'multiply', 'multiply', 'multiply', 'multiply', 'final_answer']);
    expect(run.toolCalls.slice(0, 5).map((c) => JSON.parse(c.args))).toEqual(plan.steps.map((s) => ({ a: s.a, b: s.b })));
  });

  it('answers in text without a terminal tool, and with tool_choice "none"', async () => {
    const run = await runAgent(h.client, 'multiplier', { tools: [multiplyTool] });
    expect(run.text).toBe(`The answer is ${plan.answer}`);
    const none = await h.client.chat.completions.create({
      model: 'multiplier',
      messages: [{ role: 'user', content: TASK }],
      tools: [multiplyTool],
      tool_choice: 'none',
    });
    expect(none.choices[0].message.content).toBe(`The answer is ${plan.answer}`);
  });

  it('issues xy and x^2 as two calls in one message with parallel_tool_calls', async () => {
    const run = await runAgent(h.client, 'multiplier', { parallel: true });
    expect(run.answer).toBe(plan.answer);
    expect(run.modelCalls).toBe(5);
    const withTwo = run.messages.filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) === 2);
    expect(withTwo).toHaveLength(1);
  });

  it('with p > 0 makes every kind of mistake across choices, and fewer with smaller p', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: TASK }];
    const kinds = async (p: number) => {
      const r = await h.client.chat.completions.create({ model: `multiplier?p=${p}`, n: 60, messages, tools: [multiplyTool] });
      const seen = { ok: 0, operand: 0, args: 0, tool: 0 };
      for (const c of r.choices) {
        const tc = c.message.tool_calls![0];
        if (tc.type !== 'function') throw new Error('expected a function call');
        const args = JSON.parse(tc.function.arguments);
        if (tc.function.name === 'multiplyy') seen.tool++;
        else if (typeof args.a !== 'number' || typeof args.b !== 'number') seen.args++;
        else if (args.b === 8.01) seen.operand++;
        else if (args.a === 9418.343 && args.b === 8.11) seen.ok++;
      }
      return seen;
    };
    const noisy = await kinds(0.5);
    expect(noisy.ok + noisy.operand + noisy.args + noisy.tool).toBe(60);
    expect(noisy.operand).toBeGreaterThan(0);
    expect(noisy.args).toBeGreaterThan(0);
    expect(noisy.tool).toBeGreaterThan(0);
    expect(noisy.ok).toBeGreaterThan(0);
    expect((await kinds(0)).ok).toBe(60);
  });

  it('retries a step whose call failed, and reuses a wrong number it got back', async () => {
    const x = plan.steps[0].value;
    const base: ChatCompletionMessageParam[] = [{ role: 'user', content: TASK }];
    const call = (id: string, name: string, args: unknown): ChatCompletionMessageParam => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    const next = async (messages: ChatCompletionMessageParam[]) => {
      const r = await h.client.chat.completions.create({ model: 'multiplier', messages, tools: [multiplyTool] });
      const tc = r.choices[0].message.tool_calls![0];
      if (tc.type !== 'function') throw new Error('expected a function call');
      return { name: tc.function.name, args: JSON.parse(tc.function.arguments) };
    };
    const afterError = await next([
      ...base,
      call('c1', 'multiplyy', { a: 9418.343, b: 8.11 }),
      { role: 'tool', tool_call_id: 'c1', content: 'Error: unknown tool multiplyy' },
    ]);
    expect(afterError).toEqual({ name: 'multiply', args: { a: 9418.343, b: 8.11 } });

    const wrongX = 9418.343 * 8.01;
    const afterWrong = await next([
      ...base,
      call('c1', 'multiply', { a: 9418.343, b: 8.01 }),
      { role: 'tool', tool_call_id: 'c1', content: String(wrongX) },
    ]);
    expect(afterWrong).toEqual({ name: 'multiply', args: { a: 2, b: wrongX } });
    expect(wrongX).not.toBe(x);
  });

  it('the judge scores trajectories: 10 for a solved one, partial for a started one, low for a wrong answer', async () => {
    const judge = async (messages: ChatCompletionMessageParam[]) => {
      const r = await h.client.chat.completions.create({
        model: 'multiplier-judge',
        messages: [{ role: 'system', content: 'Grade the trajectory from 0 to 10.' }, ...messages],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'Evaluation',
            strict: true,
            schema: { type: 'object', properties: { reasoning: { type: 'string' }, score: { type: 'number' } } },
          },
        },
      });
      return JSON.parse(r.choices[0].message.content!) as { reasoning: string; score: number };
    };
    const solved = await runAgent(h.client, 'multiplier');
    expect((await judge(solved.messages)).score).toBe(10);
    const started = solved.messages.slice(0, 5); // user, call x, result x, call y, result y
    const partial = await judge(started);
    expect(partial.score).toBe(3);
    expect(partial.reasoning).toContain('Correct so far: x, y.');
    const wrong = await judge([...started, { role: 'assistant', content: 'The answer is 42' }]);
    expect(wrong.score).toBeLessThanOrEqual(2);
    const asText = await judge([{ role: 'user', content: `Trajectory:\n${JSON.stringify(solved.messages)}` }]);
    expect(asText.score).toBe(10);
  });
});

describe('classifier', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  const classify = async (model: string, content: string, system = 'Answer with exactly one of: yes, no', n = 1) => {
    const r = await h.client.chat.completions.create({
      model,
      n,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content },
      ],
    });
    return r.choices.map((c) => c.message.content);
  };

  it('parses choices from "one of:", "Choices:" lines and list headings', () => {
    expect(parseChoices('Answer with exactly one of: yes, no')).toEqual(['yes', 'no']);
    expect(parseChoices('Choices: safe | unsafe | unsure')).toEqual(['safe', 'unsafe', 'unsure']);
    expect(parseChoices('**Available Choices:**\n---------\n1. "A" for animals\n2. "P" for plants\n\nInput: cat')).toEqual(['A', 'P']);
    expect(parseChoices('no choices here')).toEqual(['yes', 'no']);
  });

  it('defaults to the first choice; [judge:X] markers and accept/reject options steer it', async () => {
    expect(await classify('classifier', 'Is the sky blue?')).toEqual(['yes']);
    expect(await classify('classifier', 'Is the sky blue? [judge:no]')).toEqual(['no']);
    expect(await classify('classifier?accept=yellow', 'The answer was: blue')).toEqual(['no']);
    expect(await classify('classifier?accept=yellow', 'The answer was: yellow')).toEqual(['yes']);
    expect(await classify('classifier?reject=rude', 'That was rude')).toEqual(['no']);
    expect(await classify('classifier', 'route this', 'Choices: math, poetry, code')).toEqual(['math']);
    expect(await classify('classifier', 'route this [judge:code]', 'Choices: math, poetry, code')).toEqual(['code']);
  });

  it('with p=1 always answers a different choice; with p=0.5 the n samples disagree', async () => {
    expect(new Set(await classify('classifier?p=1', 'x', 'Answer with exactly one of: yes, no', 10))).toEqual(new Set(['no']));
    const mixed = await classify('classifier?p=0.5', 'x', 'Answer with exactly one of: yes, no', 20);
    expect(new Set(mixed)).toEqual(new Set(['yes', 'no']));
  });

  it('answers structured outputs and forced tool calls', async () => {
    const r = await h.client.chat.completions.create({
      model: 'classifier',
      messages: [{ role: 'user', content: 'Is it spam? Choices: spam, ham [judge:ham]' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'Label', schema: { type: 'object', properties: { label: { enum: ['spam', 'ham'] } } } },
      },
    });
    expect(JSON.parse(r.choices[0].message.content!)).toEqual({ label: 'ham' });
    const t = await h.client.chat.completions.create({
      model: 'classifier',
      messages: [{ role: 'user', content: 'Is it spam? Choices: spam, ham' }],
      tools: [{ type: 'function', function: { name: 'classify', parameters: { type: 'object', properties: { choice: { type: 'string' } } } } }],
      tool_choice: { type: 'function', function: { name: 'classify' } },
    });
    const tc = t.choices[0].message.tool_calls![0];
    if (tc.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(tc.function.arguments)).toEqual({ choice: 'spam' });
  });
});
