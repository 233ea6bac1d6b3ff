import { z } from 'zod';
import { RUN_KINDS, type RunKindName } from './run-kinds';

/**
 * The JSON Schema of a ready-made workflow's input, for services in other languages that start
 * grove runs with their own Temporal client. The same zod schema validates the input in the
 * client and in the workflow; this is its published form (docs/schemas/<kind>.input.json).
 *
 * @example
 * runInputJsonSchema('airetry').properties.checks; // the check catalogue
 */
export function runInputJsonSchema(kind: RunKindName): Record<string, unknown> {
  const schema = z.toJSONSchema(RUN_KINDS[kind].schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: `grove ${kind} workflow input`, description: `Input of the \`${kind}\` workflow (task queue \`grove\` by default).` };
}
