import { z } from 'zod';
import { GroveError } from '../../core/errors';
import type { ToolSpec } from '../../core/schemas/agent-activities';
import type { Message } from '../../core/schemas/messages';
import { ToolFailure } from '../../core/failures';

/** What a tool's `run` gets besides its arguments (Saplings' `trajectory` keyword, plus cancellation). */
export interface ToolContext {
  /**
   * The conversation before the assistant message that made this call (the prompt, earlier calls
   * and their results). A private copy: changing it changes nothing in the search tree.
   */
  trajectory: Message[];
  /** Aborted when the activity is cancelled (pass it to `fetch` and the like). */
  signal?: AbortSignal;
}

/**
 * A tool the search agents can call: the Saplings `Tool` (seed 004, "Creating a tool") with a
 * zod schema instead of a hand-written JSON Schema, so the arguments `run` receives are
 * validated and typed.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType, O = unknown> {
  /** `^[a-zA-Z0-9_-]{1,64}$`: what OpenAI accepts as a function name. */
  name: string;
  /** What the tool does and when to call it; the model reads it. */
  description: string;
  /** The arguments. Its JSON Schema (`z.toJSONSchema`, without `$schema`) is what the model gets, unless `jsonSchema` is given. */
  parameters: S;
  /**
   * The JSON Schema the model gets, for a tool whose arguments are described by one already (an
   * MCP server's tool); `parameters` then only checks the arguments. Default: `parameters`'.
   */
  jsonSchema?: Record<string, unknown>;
  /** Calling it ends a trajectory (e.g. a final answer). Default false. */
  isTerminal?: boolean;
  /** Send the schema with `strict: true` (every property must then be required). Default false. */
  strict?: boolean;
  /**
   * A person must approve each call before it runs (a payment, an email, a deletion): the run
   * waits durably for an `approve` update — surviving worker restarts — and applies its
   * default decision after its approval timeout. A rejected call is answered with a tool
   * message saying so; the tool never runs without an approval. Default false.
   */
  requiresApproval?: boolean;
  /**
   * Quick (well under a second), idempotent and without side effects worth a retry on another
   * worker — arithmetic, parsing, a lookup in memory. Such a tool runs as a Temporal *local*
   * activity on the worker holding the run: recorded in history like any step, but without a
   * round trip through a task queue (~5 ms instead of ~35). A worker that dies mid-call runs it
   * again, so it must be safe to repeat. Ignored when the run sets `toolTaskQueue` (the tools
   * then live on other workers). Default false.
   */
  fast?: boolean;
  /**
   * Bump it when what the tool does changes but its name, description and schema do not (a bug
   * fix, a new data source): workers are interchangeable for a run only when their tools agree
   * on name, spec and version, and grove reports workers on one task queue that differ.
   */
  version?: string;
  run(args: z.output<S>, ctx: ToolContext): O | Promise<O>;
  /** What the model sees of the output. Default: a string as is, anything else as JSON. */
  formatOutput?(output: O): string;
  /** What the tool message keeps as `rawOutput` (evaluators read it). Default: the output itself. */
  rawOutput?(output: O): unknown;
  /** Whether the tool is offered for this trajectory. Default: always. */
  isActive?(trajectory: Message[]): boolean | Promise<boolean>;
}

/** Any tool, whatever its schema and output (what a worker registers). */
export type AnyToolDefinition = ToolDefinition<z.ZodType, any>;

/** A tool definition that can never work (bad name, schema that is not a JSON object...), or two tools with one name. */
export class ToolDefinitionError extends GroveError {
  static override readonly errorName = ToolFailure.InvalidDefinition;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const schemas = new WeakMap<object, Record<string, unknown>>();

/**
 * Checks a tool when it is defined, so a mistake surfaces when the worker module loads rather
 * than as a rejected request in the middle of a search. Returns the definition itself.
 *
 * @example
 * export const multiply = defineTool({
 *   name: 'multiply',
 *   description: 'Multiplies two numbers and returns the result number.',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   run: ({ a, b }) => a * b,
 * });
 */
export function defineTool<S extends z.ZodType, O>(def: ToolDefinition<S, O>): ToolDefinition<S, O> {
  checkToolDefinition(def);
  return def;
}

/**
 * What the model (and the workflow) is told about a tool.
 *
 * @example
 * toolSpec(multiply).parameters
 * // { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false }
 */
export function toolSpec(def: AnyToolDefinition): ToolSpec {
  return {
    name: def.name,
    description: def.description,
    parameters: parametersSchema(def),
    strict: def.strict ?? false,
    isTerminal: def.isTerminal ?? false,
    hasIsActive: typeof def.isActive === 'function',
    ...(def.requiresApproval ? { requiresApproval: true } : {}),
    ...(def.fast && !def.requiresApproval ? { fast: true } : {}),
  };
}

/**
 * Throws a {@link ToolDefinitionError} naming what is wrong with `def` (also called by
 * `createToolActivities` for tools not made with {@link defineTool}).
 *
 * @example
 * checkToolDefinition({ name: 'web search', ... }) // throws: tool name "web search" must match ^[a-zA-Z0-9_-]{1,64}$
 */
export function checkToolDefinition(def: AnyToolDefinition): void {
  const fail = (what: string): never => {
    throw new ToolDefinitionError(`tool ${JSON.stringify(def?.name)}: ${what}`);
  };
  if (typeof def !== 'object' || def === null) throw new ToolDefinitionError(`a tool definition must be an object, got ${String(def)}`);
  if (typeof def.name !== 'string' || !NAME.test(def.name)) {
    fail(`the name must match ${NAME.source} (letters, digits, "_" and "-", at most 64), as OpenAI requires`);
  }
  if (typeof def.description !== 'string' || def.description.trim() === '') fail('needs a description (the model reads it to decide when to call the tool)');
  if (typeof def.run !== 'function') fail('needs a run(args, ctx) function');
  for (const key of ['formatOutput', 'rawOutput', 'isActive'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'function') fail(`${key} must be a function when given`);
  }
  for (const key of ['isTerminal', 'strict', 'requiresApproval', 'fast'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'boolean') fail(`${key} must be a boolean when given`);
  }
  if (def.version !== undefined && (typeof def.version !== 'string' || def.version === '')) fail('version must be a non-empty string when given');
  if (!(def.parameters instanceof z.ZodType)) fail('parameters must be a zod schema, e.g. z.object({ a: z.number() })');
  if (def.jsonSchema !== undefined && (typeof def.jsonSchema !== 'object' || def.jsonSchema === null || Array.isArray(def.jsonSchema))) {
    fail('jsonSchema must be a JSON Schema object when given');
  }
  let schema: Record<string, unknown>;
  try {
    schema = parametersSchema(def);
  } catch (err) {
    return fail(`its parameters cannot be written as JSON Schema (${(err as Error).message})`);
  }
  if (schema.type !== 'object') fail('parameters must be a zod object (OpenAI functions take a JSON object of arguments)');
  if (def.strict) {
    const problem = strictProblem(schema, 'parameters');
    if (problem) fail(`strict is set but ${problem}; OpenAI's strict mode needs every property required (use .nullable() instead of .optional()) and no extra properties`);
  }
}

/** The JSON Schema of the arguments, computed once per definition. */
function parametersSchema(def: AnyToolDefinition): Record<string, unknown> {
  if (def.jsonSchema) return def.jsonSchema;
  const cached = schemas.get(def);
  if (cached) return cached;
  const { $schema: _ignored, ...schema } = z.toJSONSchema(def.parameters) as Record<string, unknown>;
  schemas.set(def, schema);
  return schema;
}

/** The first place where a JSON Schema breaks OpenAI's strict-mode rules, or undefined. */
function strictProblem(schema: unknown, at: string): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Record<string, unknown>;
  if (s.properties && typeof s.properties === 'object') {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const key of Object.keys(s.properties)) {
      if (!required.has(key)) return `${at}.${key} is optional`;
    }
    if (s.additionalProperties !== false) return `${at} allows extra properties`;
    for (const [key, sub] of Object.entries(s.properties as Record<string, unknown>)) {
      const problem = strictProblem(sub, `${at}.${key}`);
      if (problem) return problem;
    }
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    if (Array.isArray(s[key])) {
      for (const [i, sub] of (s[key] as unknown[]).entries()) {
        const problem = strictProblem(sub, `${at}.${key}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  if (s.items) {
    const problem = strictProblem(s.items, `${at}[]`);
    if (problem) return problem;
  }
  for (const key of ['$defs', 'definitions'] as const) {
    if (s[key] && typeof s[key] === 'object') {
      for (const [name, sub] of Object.entries(s[key] as Record<string, unknown>)) {
        const problem = strictProblem(sub, `${key}.${name}`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}
