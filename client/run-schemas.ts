import { z } from 'zod';
import { RUN_KINDS, type RunKindName } from './run-kinds';

/**
 * The JSON Schema of a ready-made workflow's input, for services in other languages that start
 * grove runs with their own Temporal client. The same zod schema validates the input in the
 * client and in the workflow; this is its published form (docs/schemas/<kind>.input.json), with
 * every field's description and default.
 *
 * @example
 * runInputJsonSchema('airetry').properties.checks; // the check catalogue
 */
export function runInputJsonSchema(kind: RunKindName): Record<string, unknown> {
  const schema = z.toJSONSchema(RUN_KINDS[kind].schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    title: `grove ${kind} workflow input`,
    description:
      `Input of the \`${kind}\` workflow: start workflow type "${RUN_KINDS[kind].workflowType}" on task queue \`grove\` (by default) ` +
      'with exactly ONE argument, this object (grove workflows take a single argument, so a field can be added without breaking callers).',
  };
}

/**
 * The JSON Schema of a ready-made workflow's result (docs/schemas/<kind>.result.json): what a
 * service in another language reads from the workflow's result payload.
 *
 * @example
 * runResultJsonSchema('agent').properties.isSolution; // { type: 'boolean', description: ... }
 */
export function runResultJsonSchema(kind: RunKindName): Record<string, unknown> {
  const schema = z.toJSONSchema(RUN_KINDS[kind].resultSchema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: `grove ${kind} workflow result`, description: `Result of the \`${kind}\` workflow (one JSON value).` };
}
