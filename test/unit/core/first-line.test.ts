import { firstLine } from '../../../core/first-line';

test('firstLine keeps the first line of a text and cuts it to max characters with an ellipsis', () => {
  expect(firstLine('boom\n    at f (x.ts:1)')).toBe('boom');
  expect(firstLine('a'.repeat(500), 300)).toBe(`${'a'.repeat(299)}…`);
  expect(firstLine('a'.repeat(300), 300)).toBe('a'.repeat(300));
  expect(firstLine('')).toBe('');
});
