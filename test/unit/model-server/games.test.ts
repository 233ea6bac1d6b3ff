/**
 * The seeds' games played against the scripted policies the way grove's airetry plays them:
 * ask, check, append "### Feedback from Evaluator\n<fb>\n", ask again.
 */
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { type Harness, feedbackMessage, startHarness } from './helpers';
import { extractFood } from '../../../model-server';

interface Check {
  ok: (answer: string) => boolean;
  feedback: (answer: string) => string;
}

/**
 * Sequential airetry-like loop: n samples per call, keep the first sample passing all checks
 * so far (else sample 0), give feedback on the first failing check until it passes.
 */
async function play(
  client: OpenAI,
  model: string,
  prompt: string,
  checks: Check[],
  opts: { n?: number; maxRetries?: number } = {},
): Promise<{ answer: string; retries: number[]; calls: number }> {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
  let calls = 0;
  const ask = async (upTo: number): Promise<string> => {
    calls++;
    const r = await client.chat.completions.create({ model, messages, n: opts.n ?? 2, temperature: 0.7 });
    const answers = r.choices.map((c) => c.message.content ?? '');
    return answers.find((a) => checks.slice(0, upTo + 1).every((c) => c.ok(a))) ?? answers[0];
  };
  const retries: number[] = [];
  let answer = await ask(0);
  for (let i = 0; i < checks.length; i++) {
    let tries = 0;
    while (!checks[i].ok(answer)) {
      if (++tries > (opts.maxRetries ?? 10)) throw new Error(`check ${i} never passed; last answer ${answer}`);
      messages.push({ role: 'assistant', content: answer }, feedbackMessage(checks[i].feedback(answer)));
      answer = await ask(i);
    }
    retries.push(tries);
  }
  return { answer, retries, calls };
}

const COLOR_PROMPT = "Guess what color I'm thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only";
const colorChecks: Check[] = [
  { ok: (s) => s.split(/ |\./).length === 1, feedback: () => 'You must answer with 1 word only.' },
  { ok: (s) => s.length > 0 && [...s].every((ch) => ch >= 'a' && ch <= 'z'), feedback: () => 'You must answer in lowercase.' },
  { ok: (s) => s.startsWith('y'), feedback: () => 'It starts with "y"' },
];

describe('color-guesser', () => {
  const servers: Harness[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.server.close()));
  });

  it('converges on "yellow" under the seed three checks, and each check needs retries somewhere', async () => {
    const totals = [0, 0, 0];
    for (let seed = 0; seed < 6; seed++) {
      const h = await startHarness({ seed });
      servers.push(h);
      const game = await play(h.client, 'color-guesser', COLOR_PROMPT, colorChecks);
      expect(game.answer).toBe('yellow');
      game.retries.forEach((r, i) => (totals[i] += r));
    }
    expect(totals.every((t) => t > 0)).toBe(true);
  });

  it('obeys in-place feedback (all feedback appended to the one user message)', async () => {
    const h = await startHarness();
    servers.push(h);
    const content = `${COLOR_PROMPT}\n\n### Feedback from Evaluator\nYou must answer with 1 word only.\n----------\nYou must answer in lowercase.\n----------\nIt starts with "y"\n`;
    const r = await h.client.chat.completions.create({ model: 'color-guesser', n: 5, messages: [{ role: 'user', content }] });
    expect(r.choices.map((c) => c.message.content)).toEqual(Array(5).fill('yellow'));
  });

  it('breaks unknown rules at rates set by options', async () => {
    const h = await startHarness();
    servers.push(h);
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: COLOR_PROMPT }];
    const always = await h.client.chat.completions.create({ model: 'color-guesser?sentence=1&capital=1', n: 4, messages });
    for (const c of always.choices) expect(c.message.content).toMatch(/^I think it is [A-Z][a-z]+\.$/);
    const never = await h.client.chat.completions.create({ model: 'color-guesser?sentence=0&capital=0', n: 4, messages });
    for (const c of never.choices) expect(c.message.content).toMatch(/^[a-z]+$/);
  });
});

describe('number-guesser (llm_guesser)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  const prompt = "I'm thinking a number between 1-100. Guess which one it is. \nYou must respond only with digits and nothing else. \nYour guess:";
  const checksFor = (user: number): Check[] => {
    const lower = Math.floor(user / 10) * 10;
    const upper = lower + 10;
    const parse = (s: string) => (/^-?\d+$/.test(s.trim()) ? Number(s.trim()) : undefined);
    return [
      { ok: (s) => parse(s) !== undefined, feedback: (s) => `Output: ${s}\nFeedback: You must respond only with digits!!` },
      {
        ok: (s) => parse(s)! >= lower && parse(s)! <= upper,
        feedback: () => `The number is between or equal to ${lower} to ${upper}.`,
      },
      {
        ok: (s) => parse(s) === user,
        feedback: (s) => `Your guess of ${parse(s)} is wrong, it's ${Math.abs(parse(s)! - user)} numbers away.`,
      },
    ];
  };

  it.each([33, 7, 50, 99, 100])('finds %i', async (user) => {
    const game = await play(h.client, 'number-guesser', prompt, checksFor(user), { maxRetries: 12 });
    expect(game.answer).toBe(String(user));
    expect(game.calls).toBeLessThanOrEqual(10);
  });

  it('first guesses 50, sometimes in words, like the seed model', async () => {
    const r = await h.client.chat.completions.create({ model: 'number-guesser', n: 8, messages: [{ role: 'user', content: prompt }] });
    const answers = r.choices.map((c) => c.message.content);
    expect(new Set(answers)).toEqual(new Set(['50', 'My guess is 50']));
  });
});

describe('food-extractor (aiExtract Food)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  const sentence = 'I just ate a delicious and juicy apple.';
  const feedback = 'The output is not in the correct format. The keys should be "name", "adjectives".';

  it('extracts food nouns and adjectives', () => {
    expect(extractFood(sentence)).toEqual({ name: 'apple', adjectives: ['delicious', 'juicy'] });
    expect(extractFood('I am eating a crunchy bread.')).toEqual({ name: 'bread', adjectives: ['crunchy'] });
    expect(extractFood('We had some very spicy, hot ramen today')).toEqual({ name: 'ramen', adjectives: ['spicy', 'hot'] });
  });

  it('json_schema: wrong key first, the right key after feedback mentioning "name"', async () => {
    const response_format = {
      type: 'json_schema' as const,
      json_schema: {
        name: 'Food',
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, adjectives: { type: 'array', items: { type: 'string' } } },
          required: ['name'],
        },
      },
    };
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: sentence }];
    const first = await h.client.chat.completions.create({ model: 'food-extractor', messages, response_format });
    const bad = first.choices[0].message.content!;
    expect(JSON.parse(bad)).toEqual({ food: 'apple', adjectives: ['delicious', 'juicy'] });
    messages.push({ role: 'assistant', content: bad }, feedbackMessage(feedback));
    const second = await h.client.chat.completions.create({ model: 'food-extractor', messages, response_format });
    expect(JSON.parse(second.choices[0].message.content!)).toEqual({ name: 'apple', adjectives: ['delicious', 'juicy'] });
  });

  it('json_object with the seed prompt: reads the last "Input:" line, not the example', async () => {
    const prompt =
      'Example:\nInput: "I drive a black Porsche 911 Turbo."\nOutput: {"model":"911 Turbo"}\n---------\n' +
      `**User Request:**\nInput: ${sentence}\nOutput:\n\nYou MUST OUTPUT in JSON format.`;
    const r = await h.client.chat.completions.create({
      model: 'food-extractor',
      messages: [{ role: 'user', content: prompt }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(r.choices[0].message.content!)).toEqual({ food: 'apple', adjectives: ['delicious', 'juicy'] });
  });

  it('tools: one tool call whose arguments are the JSON', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'Food_extractor',
          parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
    ];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: sentence }];
    const first = await h.client.chat.completions.create({ model: 'food-extractor', messages, tools, tool_choice: 'required' });
    const call = first.choices[0].message.tool_calls![0];
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('Food_extractor');
    expect(JSON.parse(call.function.arguments)).toEqual({ food: 'apple', adjectives: ['delicious', 'juicy'] });
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'Error: missing key "name"' });
    messages.push(feedbackMessage(feedback));
    const second = await h.client.chat.completions.create({ model: 'food-extractor', messages, tools, tool_choice: 'required' });
    const call2 = second.choices[0].message.tool_calls![0];
    if (call2.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call2.function.arguments)).toEqual({ name: 'apple', adjectives: ['delicious', 'juicy'] });
  });
});

describe('echo and assistant in JSON modes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('echo answers valid JSON for json_object and json_schema', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];
    const o = await h.client.chat.completions.create({ model: 'echo', messages, response_format: { type: 'json_object' } });
    expect(JSON.parse(o.choices[0].message.content!)).toEqual({ echo: 'hi' });
    const s = await h.client.chat.completions.create({
      model: 'echo',
      messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'R', schema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } } } },
      },
    });
    expect(JSON.parse(s.choices[0].message.content!)).toEqual({ text: 'hi', n: 0 });
  });

  it('assistant acknowledges feedback', async () => {
    const r = await h.client.chat.completions.create({
      model: 'assistant',
      messages: [
        { role: 'user', content: 'Say hi!' },
        { role: 'assistant', content: 'Hello.' },
        feedbackMessage('Be more enthusiastic.'),
      ],
    });
    expect(r.choices[0].message.content).toMatch(/^Thanks for the feedback \("Be more enthusiastic\."\)\. Hi! /);
  });
});
