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
