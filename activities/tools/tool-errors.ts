import { formatIssuePath, type IssueList } from '../../core/schemas/errors';

/*
 * Model-facing texts. The model reads them on its next turn (and the evaluator scores them), so
 * each says what went wrong and what would work. They all start with "Error:" so a reader (or
 * a scripted policy) can tell them from a result.
 */

/**
 * @example
 * unknownToolText('multiplyy', ['multiply', 'final_answer'])
 * // 'Error: unknown tool "multiplyy". Available tools: multiply, final_answer.'
 */
export function unknownToolText(name: string, available: string[]): string {
  return `Error: unknown tool ${JSON.stringify(name)}. Available tools: ${available.length > 0 ? available.join(', ') : 'none'}.`;
}

/**
 * @example
 * invalidJsonText('multiply', new SyntaxError('Unexpected end of JSON input'))
 * // 'Error: the arguments for multiply are not valid JSON (Unexpected end of JSON input)'
 */
export function invalidJsonText(tool: string, error: unknown): string {
  return `Error: the arguments for ${tool} are not valid JSON (${describeError(error)})`;
}

/**
 * One `path: message` per zod issue, `; `-separated (a problem with the whole object has no path).
 *
 * @example
 * invalidArgumentsText('multiply', { issues: [{ path: ['b'], message: 'Invalid input: expected number, received undefined' }] })
 * // 'Error: invalid arguments for multiply: b: Invalid input: expected number, received undefined'
 */
export function invalidArgumentsText(tool: string, error: IssueList): string {
  const parts = error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${formatIssuePath('', issue.path).replace(/^\./, '')}: ${issue.message}`,
  );
  return `Error: invalid arguments for ${tool}: ${parts.join('; ')}`;
}

/**
 * @example
 * toolFailedText('multiply', new Error('overflow')) // 'Error: multiply failed: overflow'
 */
export function toolFailedText(tool: string, error: unknown): string {
  return `Error: ${tool} failed: ${describeError(error)}`;
}

/**
 * @example
 * notApprovedText('save_note') // 'Error: save_note requires a person's approval and this call has none; it was not run.'
 */
export function notApprovedText(tool: string): string {
  return `Error: ${tool} requires a person's approval and this call has none; it was not run.`;
}

/** An Error's message (its name when the message is empty); anything else thrown as a string. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
