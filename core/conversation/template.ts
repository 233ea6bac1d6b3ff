import { type Message, messageText } from '../schemas/messages';

/** `{{name}}`, with optional spaces inside the braces; names are identifiers. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * Fills `{{name}}` placeholders. Strings go in as is, numbers and booleans via `String`,
 * anything else as JSON. A placeholder with no value (missing or `undefined`) stays as written,
 * so a half-filled template is visible rather than silently blank. Replacement is one pass:
 * values containing `{{x}}` are not expanded again.
 *
 * @example
 * renderTemplate('### Feedback\n{{feedback}}', { feedback: 'Too long' }); // '### Feedback\nToo long'
 */
export function renderTemplate(text: string, vars: Record<string, unknown>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
    return value === undefined ? whole : stringify(value);
  });
}

/**
 * The placeholder names in `text`, each once, in order of first use.
 *
 * @example
 * templateVariables('{{a}} and {{b}} and {{a}}'); // ['a', 'b']
 */
export function templateVariables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) if (!names.includes(match[1])) names.push(match[1]);
  return names;
}

/**
 * Drops the variables that any message's text uses as a placeholder (the seeds'
 * `remove_used_kwargs`: once a template is in the conversation, its variables are spent).
 * Returns a new object; `vars` is not modified.
 *
 * @example
 * removeUsedVariables({ a: 1, b: 2, c: 3 }, [userMessage('{{a}} {{d}}'), userMessage('{{b}}')]); // { c: 3 }
 */
export function removeUsedVariables(vars: Record<string, unknown>, conv: Message[]): Record<string, unknown> {
  const used = new Set<string>();
  for (const m of conv) for (const name of templateVariables(messageText(m))) used.add(name);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(vars)) if (!used.has(k)) out[k] = v;
  return out;
}
