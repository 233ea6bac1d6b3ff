import { createHash } from 'node:crypto';
import type { McpCallResult, McpTool } from './mcp-types';
import { z } from 'zod';
import { type ToolDefinition, ToolDefinitionError } from '../tools/define-tool';
import type { McpConnection } from './mcp-connection';
import { mcpResultText } from './mcp-output';
import { loadMcpSdk } from './mcp-sdk';

/** A grove tool served by an MCP server: a `ToolDefinition` that also says where it comes from. */
export interface McpToolDefinition extends ToolDefinition<z.ZodType, McpCallResult> {
  mcp: { server: string; tool: string };
}

/** An MCP tool a worker does not serve, and why. */
export interface SkippedMcpTool {
  server: string;
  tool: string;
  reason: string;
}

const MAX_NAME = 64;

/**
 * The name the model calls an MCP tool by: `<server>__<tool>`, with every character the model
 * API does not accept in a function name (`^[a-zA-Z0-9_-]{1,64}$`) replaced by `_`. A name
 * longer than 64 is cut and ends with 8 hex digits of a hash of the full name, so two long
 * names that share a beginning stay apart.
 *
 * @example
 * mcpToolName('everything', 'echo')          // 'everything__echo'
 * mcpToolName('files', 'read.file')          // 'files__read_file'
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `${server}__${tool}`;
  const clean = full.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (clean.length <= MAX_NAME) return clean;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${clean.slice(0, MAX_NAME - 9)}_${hash}`;
}

/**
 * The grove tools of one server's listing: allow-list applied, names made valid and checked for
 * collisions (two MCP names that become one grove name stop the worker, naming both: which one
 * the model meant could not be told apart), tools that need MCP's task-based execution skipped.
 *
 * @example
 * const { tools, skipped } = mcpToolDefinitions(connection, await connection.listTools(), ['echo']);
 */
export function mcpToolDefinitions(connection: McpConnection, listed: McpTool[], allow?: string[]): { tools: McpToolDefinition[]; skipped: SkippedMcpTool[] } {
  const server = connection.name;
  if (allow) {
    const missing = allow.filter((name) => !listed.some((t) => t.name === name));
    if (missing.length > 0) {
      throw new ToolDefinitionError(
        `MCP server "${server}" has no tool ${missing.map((m) => JSON.stringify(m)).join(', ')} (its "tools" allow-list names it); it lists: ${listed.map((t) => t.name).join(', ') || 'no tools'}`,
      );
    }
  }
  const tools: McpToolDefinition[] = [];
  const skipped: SkippedMcpTool[] = [];
  const byName = new Map<string, string>();
  for (const tool of listed) {
    if (allow && !allow.includes(tool.name)) continue;
    if (tool.execution?.taskSupport === 'required') {
      skipped.push({ server, tool: tool.name, reason: 'it only runs as an MCP task (taskSupport "required"), which grove does not use' });
      continue;
    }
    const name = mcpToolName(server, tool.name);
    const other = byName.get(name);
    if (other !== undefined) {
      throw new ToolDefinitionError(
        `MCP server "${server}" has tools ${JSON.stringify(other)} and ${JSON.stringify(tool.name)}, which both become ${JSON.stringify(name)} (a tool name may only hold letters, digits, "_" and "-"); serve one of them with the server's "tools" allow-list`,
      );
    }
    byName.set(name, tool.name);
    tools.push(mcpToolDefinition(connection, tool, name));
  }
  return { tools, skipped };
}

/** One MCP tool as a grove tool: the server's JSON Schema is what the model sees; a call is one `tools/call`. */
function mcpToolDefinition(connection: McpConnection, tool: McpTool, name: string): McpToolDefinition {
  const jsonSchema = modelSchema(tool.inputSchema as Record<string, unknown>);
  const check = argumentsCheck(jsonSchema);
  return {
    name,
    description: tool.description?.trim() || tool.title?.trim() || `${tool.name} (a tool of MCP server ${connection.name})`,
    jsonSchema,
    parameters: z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
      const problem = check?.(args);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    async run(args, ctx) {
      const result = await connection.callTool(tool.name, args as Record<string, unknown>, ctx.signal);
      // The server ran the tool and says it failed: the model reads why, as with any tool that throws.
      if (result.isError) throw new Error(mcpResultText(result) || 'the tool reported an error without a message');
      return result;
    },
    formatOutput: mcpResultText,
    rawOutput: (result) => result.structuredContent,
    mcp: { server: connection.name, tool: tool.name },
  };
}

/**
 * The JSON Schema the model is sent: the server's, without `$schema` (as grove sends its own
 * tools'), and with `properties: {}` on a tool without arguments (some model APIs refuse an
 * object schema without it).
 */
function modelSchema(input: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = input;
  return schema.properties === undefined ? { ...schema, properties: {} } : schema;
}

/**
 * Checks arguments against the tool's JSON Schema before they are sent, so the model gets
 * grove's "invalid arguments" message without a round trip. A schema the validator cannot
 * compile is left to the server to enforce.
 */
function argumentsCheck(schema: Record<string, unknown>): ((args: unknown) => string | undefined) | undefined {
  try {
    validator ??= new (loadMcpSdk().AjvJsonSchemaValidator)();
    const validate = validator.getValidator(schema as never);
    return (args) => {
      const result = validate(args);
      return result.valid ? undefined : (result.errorMessage ?? 'the arguments do not match the schema');
    };
  } catch {
    return undefined;
  }
}

let validator: InstanceType<ReturnType<typeof loadMcpSdk>['AjvJsonSchemaValidator']> | undefined;
