import { safePrefixLength, type SecretSpellings } from './safe-prefix';
import { secretEncodings } from './secret-encodings';

/**
 * Known secret values of a worker, and a function that blanks them out of text. Tools and
 * evaluators run in the worker's process and can read its environment, and a model may have
 * seen a key somewhere and repeat it; whatever they return is stored (the message store, run
 * histories, results) and shown (the CLI, the viewer), so known secrets are removed from model
 * answers, evaluator reasoning, tool outputs and activity errors before anything is recorded.
 *
 * Known = the values of `OPENAI_API_KEY`, `TEMPORAL_API_KEY`, every variable whose name says it
 * holds one (`…KEY`, `…TOKEN`, `…SECRET`, `…PASSWORD`, `…CREDENTIAL…`), the variables listed in
 * `GROVE_SECRET_ENV` (comma-separated), and the passwords inside URL-valued variables
 * (`postgres://user:pw@…`), plus the `more` given (e.g. the keys the worker hands its MCP
 * servers). Values shorter than 8 characters are not treated as secrets (they would blank
 * common words). Each value is found as is and in its obvious encodings (see
 * `secretEncodings`: base64 in both alphabets, padded or not, at any alignment inside a longer
 * base64 text; hex; URL-encoding; reversed): `[redacted NAME]`, or `[redacted NAME as base64]`.
 *
 * @example
 * const redact = secretRedactor(process.env);
 * redact(`key is ${process.env.OPENAI_API_KEY}`) // 'key is [redacted OPENAI_API_KEY]'
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env, more: { name: string; value: string }[] = []): Redactor {
  const labels = new Map<string, string>();
  for (const { name, value } of [...knownSecrets(env), ...more]) {
    for (const { text, encoding } of secretEncodings(value)) {
      if (!labels.has(text)) labels.set(text, encoding === 'exact' ? name : `${name} as ${encoding}`);
    }
  }
  if (labels.size === 0) return Object.assign((text: string) => text, { safePrefix: (text: string) => text.length });
  // One pass; the longest needle first, so a whole encoding wins over a part of it at the same place.
  const needles = [...labels.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'), 'g');
  // Then every JSON spelling of each value: any of its characters may be written as a \uXXXX
  // escape (either case), a slash as \/ (PHP's json_encode), a quote or backslash escaped.
  // And every URL-encoding: any character literal or percent-escaped (either case), as encoders
  // differ in what they leave alone (Python's quote() keeps '/', encodeURIComponent does not).
  const spellings = [...knownSecrets(env), ...more].flatMap(({ name, value }) => [
    { label: `${name} as json`, pattern: new RegExp(jsonSpelling(value), 'g') },
    { label: `${name} as url`, pattern: new RegExp(urlSpelling(value), 'g') },
  ]);
  const redact = (text: string) => {
    if (typeof text !== 'string') return text;
    let out = text.replace(pattern, (found) => `[redacted ${labels.get(found)}]`);
    for (const { label, pattern: spelled } of spellings) out = out.replace(spelled, `[redacted ${label}]`);
    return out;
  };
  const known: SecretSpellings = {
    needles,
    values: [...knownSecrets(env), ...more].map((s) => s.value),
    spans: (text) => [pattern, ...spellings.map((s) => s.pattern)].flatMap((re) => [...text.matchAll(re)].map((m): [number, number] => [m.index, m.index + m[0].length])),
  };
  return Object.assign(redact, { safePrefix: (text: string) => safePrefixLength(text, known) });
}

/**
 * Blanks known secrets out of a text; `safePrefix(text)` says how much of a text that is still
 * growing (a streamed answer) may be redacted and shown now: all of it but a tail that could be
 * the beginning of a secret (`safePrefixLength`).
 */
export type Redactor = ((text: string) => string) & { safePrefix(text: string): number };

/** A pattern for every way a JSON string can spell `value` (characters outside the BMP as surrogate pairs). */
function jsonSpelling(value: string): string {
  let source = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const hex = unit.toString(16).padStart(4, '0');
    const forms = [`\\\\u${hex.replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`)}`];
    const ch = value[i]!;
    if (ch === '"' || ch === '\\') forms.push(escapeRegExp(`\\${ch}`));
    else if (unit >= 0x20) forms.push(escapeRegExp(ch));
    if (ch === '/') forms.push('\\\\/');
    const short = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' }[ch];
    if (short) forms.push(`\\\\${short}`);
    source += `(?:${forms.join('|')})`;
  }
  return source;
}

/** A pattern for every percent-encoding of `value`: each UTF-8 byte literal (when it is one character) or %XX in either case, a space also as '+'. */
function urlSpelling(value: string): string {
  let source = '';
  for (const ch of value) {
    const bytes = [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`)}`).join('');
    const forms = [bytes, escapeRegExp(ch)];
    if (ch === ' ') forms.push('\\+');
    source += `(?:${forms.join('|')})`;
  }
  return source;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)(?:_|$)/i;
const MIN_LENGTH = 8;

export function knownSecrets(env: NodeJS.ProcessEnv): { name: string; value: string }[] {
  const listed = new Set((env.GROVE_SECRET_ENV ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const found: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || name === 'GROVE_SECRET_ENV') continue;
    if ((listed.has(name) || SECRET_NAME.test(name)) && value.length >= MIN_LENGTH) found.push({ name, value });
    const password = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]+)@/i.exec(value)?.[1];
    if (password && password.length >= MIN_LENGTH) {
      found.push({ name: `${name} password`, value: password });
      const decoded = safeDecode(password);
      if (decoded !== password) found.push({ name: `${name} password`, value: decoded });
    }
  }
  return found;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Blanks known secrets out of an error's message (and its causes') in place, before the worker
 * reports it to Temporal and logs it.
 */
export function redactError(err: unknown, redact: (text: string) => string): void {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    const message = redact(e.message);
    if (message !== e.message) {
      e.message = message;
      if (e.stack) e.stack = redact(e.stack);
    }
  }
}
