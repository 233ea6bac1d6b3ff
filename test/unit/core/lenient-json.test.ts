import { z } from 'zod';
import { jsonOutput, unfenceJson } from '../../../core/airetry/output-parsers';

const Person = z.object({ name: z.string(), age: z.number() });
const answer = (content: string) => ({ role: 'assistant' as const, content });

test('a lenient extraction accepts a ```json fence and quotes the schema when the answer does not match', () => {
  const lenient = jsonOutput(Person, { lenient: true });
  expect(lenient.parse(answer('Sure:\n```json\n{"name": "Maria", "age": 34}\n```'))).toEqual({ ok: true, value: { name: 'Maria', age: 34 } });
  const wrong = lenient.parse(answer('{"name": "Maria"}'));
  expect(wrong.ok).toBe(false);
  expect((wrong as { error: string }).error).toMatch(/^age: .*The answer must be JSON matching this JSON Schema: \{"type":"object"/);
  expect(unfenceJson('no fence')).toBe('no fence');
});

test('the strict parser (runs recorded before) still refuses fences and says nothing of the schema', () => {
  const strict = jsonOutput(Person);
  const fenced = strict.parse(answer('```json\n{"name": "Maria", "age": 34}\n```'));
  expect(fenced.ok).toBe(false);
  expect((fenced as { error: string }).error).not.toContain('JSON Schema');
});
