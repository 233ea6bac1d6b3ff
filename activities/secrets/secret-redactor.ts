/**
 * Known secret values of a worker, and a function that blanks them out of text. Tools and
 * evaluators run in the worker's process and can read its environment; whatever they return is
 * stored and travels through history, so known secrets are removed from tool outputs and from
 * activity errors before anything is recorded.
 *
 * Known = the values of `OPENAI_API_KEY`, `TEMPORAL_API_KEY`, every variable whose name says it
 * holds one (`…KEY`, `…TOKEN`, `…SECRET`, `…PASSWORD`, `…CREDENTIAL…`), the variables listed in
 * `GROVE_SECRET_ENV` (comma-separated), and the passwords inside URL-valued variables
 * (`postgres://user:pw@…`), plus the `more` given (e.g. the keys the worker hands its MCP
 * servers). Values shorter than 8 characters are not treated as secrets (they would blank
 * common words).
 *
 * @example
 * const redact = secretRedactor(process.env);
 * redact(`key is ${process.env.OPENAI_API_KEY}`) // 'key is [redacted OPENAI_API_KEY]'
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env, more: { name: string; value: string }[] = []): (text: string) => string {
  const secrets = [...knownSecrets(env), ...more].sort((a, b) => b.value.length - a.value.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const { name, value } of secrets) if (out.includes(value)) out = out.split(value).join(`[redacted ${name}]`);
    return out;
  };
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
