/**
 * A streamed answer is shown as it grows: what is shown at any moment must be the start of the
 * redacted whole answer, so no part of a secret appears even when the secret arrives split
 * across chunks, in any spelling the redactor knows.
 */
import { secretRedactor } from '../../../activities/secrets/secret-redactor';

const KEY = 'sk-Test/Key+42?abc de';
const redact = secretRedactor({ OPENAI_API_KEY: KEY, GROVE_SECRET_ENV: '' });

/** The spellings, written by hand (independently of grove's list). */
const bytes = Buffer.from(KEY);
const SPELLINGS: Record<string, string> = {
  exact: KEY,
  base64: bytes.toString('base64'),
  'base64 url-safe': bytes.toString('base64url'),
  hex: bytes.toString('hex'),
  url: encodeURIComponent(KEY),
  'url every byte': [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  'json escapes': [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
  reversed: [...KEY].reverse().join(''),
};

/** What a reader sees after each character of `text` arrives. */
function shown(text: string): string[] {
  const out: string[] = [];
  for (let n = 1; n <= text.length; n++) {
    const sofar = text.slice(0, n);
    out.push(redact(sofar.slice(0, redact.safePrefix(sofar))));
  }
  return out;
}

test.each(Object.entries(SPELLINGS))('the key as %s, split at every character, never shows: each view is the start of the redacted answer', (_name, spelled) => {
  const text = `Here it is: ${spelled} — keep it safe.`;
  const final = redact(text);
  expect(final).not.toContain(spelled);
  for (const view of shown(text)) {
    expect(final.startsWith(view)).toBe(true);
    for (let i = 0; i + 6 <= spelled.length; i++) expect(view).not.toContain(spelled.slice(i, i + 6)); // no piece of it either
  }
  // Plain words around it are held back no longer than they could be the key's beginning.
  expect(shown(text).at(-1)).toBe(final);
});

test('a text with no secret in it is shown whole at once; without known secrets nothing is held back', () => {
  const text = 'A plain answer, with no key in it.';
  expect(redact.safePrefix(text)).toBe(text.length);
  const none = secretRedactor({});
  expect(none.safePrefix(`${text} sk-Tes`)).toBe(text.length + 7);
});

test('only the tail that could begin the key is held back, and it is shown once the next piece rules it out', () => {
  expect(redact.safePrefix('the key is sk-Te')).toBe('the key is '.length);
  expect(redact.safePrefix('the key is sk-Tx')).toBe('the key is sk-Tx'.length);
  expect(redact.safePrefix('a path %73')).toBe('a path '.length); // '%73' is 's' percent-escaped
});
