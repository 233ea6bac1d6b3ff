import { ApplicationFailure } from '@temporalio/common';
import { knownSecrets, redactError, secretRedactor } from '../../../activities/secrets/secret-redactor';
import { redactMessage } from '../../../activities/secrets/redact-message';

const env = {
  OPENAI_API_KEY: 'sk-live-1234567890',
  STRIPE_SECRET: 'whsec_abcdefghij',
  GROVE_STORE_URL: 'postgres://grove:p%40ssw0rd-long@db:5432/grove',
  MY_CONFIG: 'not-a-secret-value',
  SHORT_TOKEN: 'abc',
  GROVE_SECRET_ENV: 'MY_CONFIG',
  HOME: '/root',
};

test('known secrets: keys, tokens, secrets, listed names, URL passwords (raw and decoded); short values are not', () => {
  const names = knownSecrets(env).map((s) => s.name);
  expect(names).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'STRIPE_SECRET', 'GROVE_STORE_URL password', 'MY_CONFIG']));
  expect(names).not.toContain('SHORT_TOKEN');
  expect(names).not.toContain('HOME');
  const redact = secretRedactor(env);
  expect(redact('k=sk-live-1234567890 pw=p@ssw0rd-long cfg=not-a-secret-value home=/root')).toBe(
    'k=[redacted OPENAI_API_KEY] pw=[redacted GROVE_STORE_URL password] cfg=[redacted MY_CONFIG] home=/root',
  );
});

test('an error and its causes lose the secrets in place', () => {
  const cause = new Error('upstream said sk-live-1234567890 is wrong');
  const err = ApplicationFailure.create({ message: 'tool failed: whsec_abcdefghij', type: 'X', cause });
  redactError(err, secretRedactor(env));
  expect(err.message).toBe('tool failed: [redacted STRIPE_SECRET]');
  expect(cause.message).toBe('upstream said [redacted OPENAI_API_KEY] is wrong');
  expect(cause.stack).not.toContain('sk-live');
});

/** A key with characters that every encoding treats differently (/, +, ?, a space). */
const KEY = 'sk-Test/Key+42?abc de';
const keyEnv = { OPENAI_API_KEY: KEY };

/** The encodings a test writes by hand, independently of grove's list. */
function encodings(value: string): Record<string, string> {
  const bytes = Buffer.from(value);
  return {
    exact: value,
    base64: bytes.toString('base64'),
    'base64 unpadded': bytes.toString('base64').replace(/=+$/, ''),
    'base64 url-safe': bytes.toString('base64url'),
    'base64 url-safe padded': bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
    hex: bytes.toString('hex'),
    'hex upper': bytes.toString('hex').toUpperCase(),
    url: encodeURIComponent(value),
    'url form': encodeURIComponent(value).replace(/%20/g, '+'),
    'url every byte': [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
    reversed: [...value].reverse().join(''),
  };
}

test.each(Object.entries(encodings(KEY)))('the key as %s, alone and inside text, is redacted', (_name, encoded) => {
  const redact = secretRedactor(keyEnv);
  const out = redact(`before ${encoded} after`);
  expect(out).toMatch(/^before \[redacted OPENAI_API_KEY( as \w+)?\] after$/);
  for (const e of Object.values(encodings(KEY))) expect(out).not.toContain(e);
});

test.each([0, 1, 2, 3, 4, 5])('the key inside a longer base64 text (prefix of %i bytes, every alignment, both alphabets) leaves nothing to decode it from', (prefix) => {
  const redact = secretRedactor(keyEnv);
  const plain = `${'x'.repeat(prefix)}token=${KEY};rest`;
  for (const alphabet of ['base64', 'base64url'] as const) {
    const out = redact(Buffer.from(plain).toString(alphabet));
    expect(out).toContain('[redacted OPENAI_API_KEY as base64]');
    // What is left decodes to text without the key (at most a character or two of it at each edge).
    const left = out.split(/\[redacted [^\]]+\]/).map((part) => Buffer.from(part, alphabet).toString('latin1')).join('');
    expect(left).not.toContain(KEY.slice(2, -2));
  }
});

test('short values and unrelated text are untouched; the longest match wins where encodings overlap', () => {
  const redact = secretRedactor({ ...keyEnv, SHORT_TOKEN: 'abc' });
  expect(redact('abc and 736b is hex of sk')).toBe('abc and 736b is hex of sk');
  expect(redact(Buffer.from(KEY).toString('base64'))).toBe('[redacted OPENAI_API_KEY as base64]');
});

test("a model's answer loses the key from its text, refusal and tool-call arguments, which stay valid JSON", () => {
  const redact = secretRedactor(keyEnv);
  const b64 = Buffer.from(KEY).toString('base64');
  const out = redactMessage(
    { role: 'assistant', content: `key ${KEY}`, refusal: `not ${b64}`, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send', arguments: JSON.stringify({ to: 'x', body: b64 }) } }] },
    redact,
  );
  expect(out.content).toBe('key [redacted OPENAI_API_KEY]');
  expect(out.refusal).toBe('not [redacted OPENAI_API_KEY as base64]');
  expect(JSON.parse(out.tool_calls![0]!.function.arguments)).toEqual({ to: 'x', body: '[redacted OPENAI_API_KEY as base64]' });
});

test('every JSON spelling of a secret is blanked: an escaped slash, \\u escapes in either case, mixed', () => {
  const secret = 'sk-rt2-Zq8/Wx+Pv=Lm93hT';
  const redact = secretRedactor({ RT2_SECRET_TOKEN: secret });
  const allU = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const spellings = [secret.replace('/', '\\/'), allU, allU.toUpperCase().replace(/\\U/g, '\\u'), `sk-rt2-Zq8\\u002FWx+Pv=Lm93hT`, JSON.stringify(secret).slice(1, -1)];
  for (const s of spellings) expect(redact(`json_escaped => ${s} <=`)).toMatch(/^json_escaped => \[redacted RT2_SECRET_TOKEN( as json)?\] <=$/);
  expect(redact('sk-rt2-Zq8/Wx+Pv=Lm93h')).toBe('sk-rt2-Zq8/Wx+Pv=Lm93h'); // a part of it is not the secret
});

test('every URL-encoding of a secret is blanked: what an encoder leaves alone, escapes in either case, mixed', () => {
  const secret = 'sk-rt3-Zq8/Wx+Pv=Lm93hT';
  const redact = secretRedactor({ RT3_SECRET_TOKEN: secret });
  for (const s of ['sk-rt3-Zq8/Wx%2BPv%3DLm93hT', 'sk-rt3-Zq8%2fWx%2BPv%3dLm93hT', 'sk-rt3-Zq8/Wx+Pv%3DLm93hT', '%73%6B-rt3-Zq8/Wx+Pv=Lm93hT']) {
    expect(redact(`url => ${s} <=`)).toMatch(/^url => \[redacted RT3_SECRET_TOKEN( as (url|json))?\] <=$/);
  }
});

test('a model answer: a secret in a tool call name or id is blanked too (a model can name a tool anything)', () => {
  const redact = secretRedactor(env);
  const KEY = env.OPENAI_API_KEY;
  const out = redactMessage({ role: 'assistant', content: null, tool_calls: [{ id: `call-${KEY}`, type: 'function', function: { name: KEY, arguments: '{}' } }] }, redact);
  expect(out.tool_calls![0]!.function.name).toBe('[redacted OPENAI_API_KEY]');
  expect(out.tool_calls![0]!.id).toBe('call-[redacted OPENAI_API_KEY]');
  expect(JSON.stringify(out)).not.toContain(KEY);
});
