import { AICall, textOutput, type AICallPort } from '../../../core/airetry';
import { CheckSpecSchema, compileCheck, type CheckSpec } from '../../../core/airetry/checks';
import { systemMessage, userMessage } from '../../../core/schemas/messages';

const noPort: AICallPort = { chat: () => Promise.reject(new Error('unused')), sleep: async () => {} };

/** A call whose active sample answered `answer`. */
function answered(answer: string): AICall<unknown> {
  const call = new AICall([systemMessage('s'), userMessage('u')], { kind: 'generate', parser: textOutput, port: noPort }) as AICall<unknown>;
  const child = call.samples.expand(0, { add: [{ role: 'assistant', content: answer }] });
  call.activeSampleId = child.id;
  return call;
}

const judgeNever = async () => false;
async function verdict(spec: CheckSpec, answer: string): Promise<{ passed: boolean; feedback: string }> {
  const check = compileCheck(CheckSpecSchema.parse(spec), 0, judgeNever);
  const call = answered(answer);
  const feedback = typeof check.feedback === 'function' ? await check.feedback(call) : check.feedback;
  return { passed: await check.condition(call), feedback };
}

test.each<[CheckSpec, string, boolean]>([
  [{ kind: 'regex', pattern: '^\\d+$' }, '42', true],
  [{ kind: 'regex', pattern: '^\\d+$' }, 'My guess is 42', false],
  [{ kind: 'regex', pattern: 'YES', flags: 'i' }, 'yes', true],
  [{ kind: 'maxWords', max: 1 }, 'yellow', true],
  [{ kind: 'maxWords', max: 1 }, 'I think yellow', false],
  [{ kind: 'oneOf', choices: ['red', 'yellow'] }, 'Yellow', true],
  [{ kind: 'oneOf', choices: ['red', 'yellow'], caseSensitive: true }, 'Yellow', false],
  [{ kind: 'equals', value: '33' }, ' 33 ', true],
  [{ kind: 'contains', value: 'apple' }, 'An Apple a day', true],
  [{ kind: 'startsWith', value: 'y' }, 'yellow', true],
  [{ kind: 'startsWith', value: 'y' }, 'blue', false],
  [{ kind: 'lowercase' }, 'yellow', true],
  [{ kind: 'lowercase' }, 'Yellow', false],
  [{ kind: 'jsonSchema', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, '{"name":"apple"}', true],
  [{ kind: 'jsonSchema', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, '{"food":"apple"}', false],
])('%j on %j passes: %s', async (spec, answer, expected) => {
  expect((await verdict(spec, answer)).passed).toBe(expected);
});

test('default and templated feedback', async () => {
  expect((await verdict({ kind: 'maxWords', max: 1 }, 'a b')).feedback).toBe('You must answer with 1 word only.');
  expect((await verdict({ kind: 'startsWith', value: 'y' }, 'blue')).feedback).toBe('It starts with "y".');
  expect((await verdict({ kind: 'equals', value: '33', feedback: 'Your guess of {{output}} is wrong.' }, '40')).feedback).toBe('Your guess of 40 is wrong.');
  expect((await verdict({ kind: 'jsonSchema', schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } }, '{}')).feedback).toBe(
    'Your answer does not match the required JSON schema: name: Invalid input: expected string, received undefined.',
  );
});

test('the llm judge check delegates to the judge runner', async () => {
  const asked: string[] = [];
  const check = compileCheck({ kind: 'llmJudge', question: 'Is it polite?' }, 2, async (_call, question) => (asked.push(question), true));
  expect(await check.condition(answered('Thank you!'))).toBe(true);
  expect(asked).toEqual(['Is it polite?']);
  expect(check.name).toBe('llmJudge#2');
});

test('bad specs are rejected with the field named', () => {
  const issues = (spec: unknown) => CheckSpecSchema.safeParse(spec).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  expect(issues({ kind: 'regex', pattern: '(' })).toEqual(['pattern: not a valid regular expression (Invalid regular expression: /(/: Unterminated group)']);
  expect(issues({ kind: 'regex', pattern: 'a', flags: 'x' })?.[0]).toMatch(/^flags: /);
  expect(issues({ kind: 'maxWords', max: 0 })?.[0]).toMatch(/^max: /);
  expect(issues({ kind: 'nope' })?.[0]).toMatch(/^kind: /);
  expect(issues({ kind: 'lowercase', extra: 1 })?.[0]).toMatch(/Unrecognized key/);
});
