import { z } from 'zod';
import { choiceOutput, jsonOutput, textOutput } from '../../../core/airetry/output-parsers';
import { assistantMessage } from '../../../core/schemas/messages';

const Food = z.object({ name: z.string(), adjectives: z.array(z.string()).nullable().optional() });

test('text output is the answer text, empty for none', () => {
  expect(textOutput.parse(assistantMessage('hi'))).toEqual({ ok: true, value: 'hi' });
  expect(textOutput.parse(assistantMessage(null))).toEqual({ ok: true, value: '' });
});

test('json output asks for a JSON schema and validates the answer with the zod schema', () => {
  const parser = jsonOutput(Food, { name: 'Food' });
  expect(parser.params?.response_format).toMatchObject({
    type: 'json_schema',
    json_schema: { name: 'Food', schema: { type: 'object', required: ['name'] } },
  });
  expect(parser.parse(assistantMessage('{"name":"apple","adjectives":["juicy"]}'))).toEqual({ ok: true, value: { name: 'apple', adjectives: ['juicy'] } });
  expect(parser.parse(assistantMessage('{"food":"apple"}'))).toEqual({ ok: false, error: 'name: Invalid input: expected string, received undefined' });
  expect(parser.parse(assistantMessage('not json'))).toMatchObject({ ok: false, error: expect.stringMatching(/^the answer is not valid JSON/) });
  expect(parser.parse(assistantMessage(''))).toMatchObject({ ok: false, error: 'the answer is empty; answer with a JSON object' });
});

test('json output in tool mode forces the tool and reads its arguments', () => {
  const parser = jsonOutput(Food, { name: 'Food', mode: 'tool' });
  expect(parser.params).toMatchObject({ tool_choice: { type: 'function', function: { name: 'Food' } } });
  const message = assistantMessage(null, { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Food', arguments: '{"name":"pear"}' } }] });
  expect(parser.parse(message)).toEqual({ ok: true, value: { name: 'pear' } });
});

test('choice output matches a choice exactly (case, quotes and punctuation aside) or a single mention', () => {
  const parser = choiceOutput(['yes', 'no'] as const);
  expect(parser.parse(assistantMessage(' Yes.'))).toEqual({ ok: true, value: 'yes' });
  expect(parser.parse(assistantMessage('"no"'))).toEqual({ ok: true, value: 'no' });
  expect(parser.parse(assistantMessage('I would say no, not really'))).toEqual({ ok: true, value: 'no' });
  expect(parser.parse(assistantMessage('yes or no?'))).toMatchObject({ ok: false });
  expect(parser.parse(assistantMessage('maybe'))).toEqual({ ok: false, error: 'the answer "maybe" is not exactly one of: yes, no' });
});
