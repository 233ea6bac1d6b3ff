import { ApplicationFailure } from '@temporalio/common';
import { knownSecrets, redactError, secretRedactor } from '../../../activities/secrets/secret-redactor';

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
