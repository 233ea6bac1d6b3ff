import {
  FEEDBACK_HEADER,
  canonicalJson,
  parseModelName,
  requestHash,
  seededRng,
} from '../../../model-server';
import { feedbackTexts, firstUserText, lastQuestion, toolCallsMade } from '../../../model-server/policies/conversation';
import { schemaExample } from '../../../model-server/policies/json-schema-example';
import { paramPath } from '../../../model-server/request-checks';
import { parseArgs } from '../../../model-server/main';
import type { ChatRequest } from '../../../model-server';

describe('model names', () => {
  it('splits policy and options', () => {
    expect(parseModelName('multiplier?p=0.3')).toEqual({ policy: 'multiplier', options: { p: '0.3' } });
    expect(parseModelName('classifier?accept=a,b&p=1')).toEqual({ policy: 'classifier', options: { accept: 'a,b', p: '1' } });
    expect(parseModelName('echo')).toEqual({ policy: 'echo', options: {} });
  });
});

describe('request hash rule', () => {
  const base = { model: 'echo', messages: [{ role: 'user', content: 'x' }], temperature: 0.7 };
  it('ignores key order, n, max_tokens, seed, user and metadata', () => {
    const h = requestHash(base);
    expect(requestHash({ temperature: 0.7, messages: base.messages, model: 'echo' })).toBe(h);
    expect(requestHash({ ...base, n: 5, max_tokens: 10, max_completion_tokens: 3, seed: 9, user: 'u', metadata: { a: '1' } })).toBe(h);
  });
  it('counts temperature, tools, response_format and model options', () => {
    const h = requestHash(base);
    expect(requestHash({ ...base, temperature: 0.701 })).not.toBe(h);
    expect(requestHash({ ...base, model: 'echo?x=1' })).not.toBe(h);
    expect(requestHash({ ...base, response_format: { type: 'json_object' } })).not.toBe(h);
  });
  it('canonical JSON sorts keys and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: [true, null], c: undefined })).toBe('{"a":[true,null],"b":1}');
  });
});

describe('seeded rng', () => {
  it('is reproducible and roughly uniform', () => {
    const a = seededRng('s'), b = seededRng('s'), c = seededRng('t');
    const xs = Array.from({ length: 2000 }, () => a());
    expect(Array.from({ length: 2000 }, () => b())).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03);
  });
});

describe('conversation helpers', () => {
  const req = (messages: unknown[]): ChatRequest => ({ model: 'x', messages }) as ChatRequest;

  it('collects feedback from separate messages and from in-place appended feedback', () => {
    const r = req([
      { role: 'user', content: `Guess!\n\n${FEEDBACK_HEADER}\nfirst\n----------\nsecond\n` },
      { role: 'assistant', content: 'Blue' },
      { role: 'user', content: `${FEEDBACK_HEADER}\n\nthird\n` },
    ]);
    expect(feedbackTexts(r)).toEqual(['first', 'second', 'third']);
    expect(firstUserText(r)).toBe('Guess!');
    expect(lastQuestion(r)).toBe('Guess!');
  });

  it('matches tool calls to tool messages by id', () => {
    const r = req([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'multiply', arguments: '{"a":1,"b":2}' } },
          { id: 'b', type: 'function', function: { name: 'multiply', arguments: 'not json' } },
        ],
      },
      { role: 'tool', tool_call_id: 'b', content: 'Error' },
      { role: 'tool', tool_call_id: 'a', content: '2' },
    ]);
    const calls = toolCallsMade(r);
    expect(calls.map((c) => [c.id, c.result, c.arguments])).toEqual([
      ['a', '2', { a: 1, b: 2 }],
      ['b', 'Error', undefined],
    ]);
  });
});

describe('schemaExample', () => {
  it('fills every property with a valid zero value or the given strings', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        kind: { enum: ['a', 'b'] },
        n: { type: ['integer', 'null'] },
        nested: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
    };
    expect(schemaExample(schema, { name: 'apple', '*': 'z', kind: 'b' })).toEqual({
      name: 'apple',
      tags: ['z'],
      kind: 'b',
      n: 0,
      nested: { ok: false },
    });
  });
});

describe('paramPath and CLI args', () => {
  it('formats OpenAI parameter paths', () => {
    expect(paramPath(['messages', 0, 'content'])).toBe('messages[0].content');
  });
  it('parses the standalone flags', () => {
    expect(parseArgs(['--port', '0', '--seed', '3', '--api-key', 'a', '--api-key', 'b'])).toEqual({
      port: 0,
      seed: 3,
      apiKeys: ['a', 'b'],
    });
    expect(() => parseArgs(['--bogus'])).toThrow('Unknown argument: --bogus');
  });
});
