import type { z } from 'zod';
import { InvalidConfigError } from '../errors';

/** What {@link formatZodError} needs from a zod error (so plain `{ issues }` objects work too). */
export interface IssueList {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `config.scoring.exploration`, `tree.nodes[3]`, `config["odd key"]`. */
export function formatIssuePath(rootName: string, path: ReadonlyArray<PropertyKey>): string {
  let out = rootName;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * One line naming every failing field, so an error in the Temporal UI or a log says what to fix
 * without expanding a JSON blob.
 *
 * @example
 * formatZodError(RetryConfigSchema.safeParse({ maxRetries: -1 }).error!, 'config')
 * // 'invalid input: config.maxRetries: Too small: expected number to be >=0'
 */
export function formatZodError(err: IssueList, rootName = 'input'): string {
  const parts = err.issues.map((issue) => `${formatIssuePath(rootName, issue.path)}: ${issue.message}`);
  return `invalid input: ${parts.join('; ')}`;
}

/**
 * Parses with a zod schema, throwing an {@link InvalidConfigError} with a
 * {@link formatZodError} message (the zod error is its `cause`).
 *
 * @example
 * const config = parseWith(RetryConfigSchema, input, 'config');
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, rootName: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new InvalidConfigError(formatZodError(result.error, rootName), { cause: result.error });
  return result.data;
}
