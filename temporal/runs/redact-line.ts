import { secretRedactor } from '../../activities/secrets/secret-redactor';

/** Secrets that look like secrets wherever they come from: bearer tokens, provider keys, URL passwords, key-like query parameters. */
const PATTERNS: [RegExp, string][] = [
  [/\b(Bearer)\s+[A-Za-z0-9._~+/-]{8,}=*/gi, '$1 [redacted]'],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g, '[redacted key]'],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s@/]+@/gi, '$1[redacted]@'],
  [/([?&](?:api[-_]?key|key|token|access_token|password|secret)=)[^&\s]+/gi, '$1[redacted]'],
];

const MAX = 500;

/**
 * A failure message as status surfaces show it: its first line, at most 500 characters, with
 * this process's known secrets (`secretRedactor`) and anything shaped like a secret blanked out.
 * Workers already redact their own secrets from activity errors; a status read elsewhere (a
 * user's worker without grove's plugin, a client on another host) is redacted again here.
 *
 * @example
 * redactLine('401 for key sk-abcdefghijklmnopqrstu\n  at …'); // '401 for key [redacted key]'
 */
export function redactLine(text: string, redact: (text: string) => string = processRedactor()): string {
  let line = redact(text.split('\n')[0].trim());
  for (const [pattern, replacement] of PATTERNS) line = line.replace(pattern, replacement);
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}

let cached: ((text: string) => string) | undefined;
function processRedactor(): (text: string) => string {
  return (cached ??= secretRedactor(process.env));
}
