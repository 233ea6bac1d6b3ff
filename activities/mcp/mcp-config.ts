import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { formatIssuePath } from '../../core/schemas/errors';

/** A bad MCP server configuration (a field, a config file, a `--mcp` flag); the message names what to fix. */
export class McpConfigError extends Error {
  override name = 'McpConfigError';
}

/** Server names prefix their tools' names (`everything__echo`), so they use the model API's name characters. */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;

const common = {
  tools: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe("Serve only these of the server's tools (their MCP names, e.g. [\"echo\"]); a name the server does not list stops the worker. Default: all."),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(3_600_000)
    .default(60_000)
    .describe("Longest one tool call may take, in milliseconds; then the call fails as GroveMcpTimeout and the run's retry policy decides."),
  startTimeoutMs: z.number().int().positive().max(600_000).default(30_000).describe('Longest starting (or connecting to) the server and listing its tools may take, in milliseconds.'),
};

/** An MCP server the worker starts and talks to over stdin/stdout. */
export const McpStdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1).describe('The program that starts the server (looked up on PATH; no shell runs it).'),
  args: z.array(z.string()).default([]).describe('Its arguments.'),
  env: z
    .record(z.string(), z.string())
    .default({})
    .describe(
      "The server's environment, besides HOME, LOGNAME, PATH, SHELL, TERM and USER. The worker's own environment (model keys, database passwords) is not passed unless inheritEnv is set. Values of variables named like secrets are blanked out of tool outputs.",
    ),
  inheritEnv: z.boolean().default(false).describe("Pass the worker's whole environment to the server (env on top)."),
  cwd: z.string().min(1).optional().describe("The server's working directory (default the worker's)."),
  ...common,
});

/** An MCP server the worker connects to over streamable HTTP. */
export const McpHttpServerSchema = z.strictObject({
  type: z.enum(['http', 'streamable-http']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).describe("The server's streamable HTTP endpoint, e.g. http://localhost:3001/mcp."),
  headers: z
    .record(z.string(), z.string())
    .default({})
    .describe('Sent with every request (e.g. Authorization); their values are blanked out of tool outputs and errors.'),
  ...common,
});

export type McpStdioServerConfig = z.output<typeof McpStdioServerSchema>;
export type McpHttpServerConfig = z.output<typeof McpHttpServerSchema>;
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;
export type McpServerInput = z.input<typeof McpStdioServerSchema> | z.input<typeof McpHttpServerSchema>;
/** MCP servers by name: `{ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } }`. */
export type McpServersInput = Record<string, McpServerInput>;
export type McpServersConfig = Record<string, McpServerConfig>;

/** The JSON Schema of an `mcpServers` map (published as docs/schemas/mcp-servers.json). */
export function mcpServersJsonSchema(): Record<string, unknown> {
  const server = z.union([McpStdioServerSchema, McpHttpServerSchema]);
  return z.toJSONSchema(z.record(z.string().regex(MCP_SERVER_NAME), server), { io: 'input' }) as Record<string, unknown>;
}

/**
 * Checks an `mcpServers` map, naming the first bad field of each bad server
 * (`mcpServers.everything.args[0]: ...`). A server with a `url` is an HTTP server, any other
 * a stdio one.
 *
 * @example
 * parseMcpServers({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } })
 */
export function parseMcpServers(input: unknown, where = 'mcpServers'): McpServersConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new McpConfigError(`${where} must be an object of servers by name, e.g. {"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}}`);
  }
  const out: McpServersConfig = {};
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(input)) {
    const at = formatIssuePath(where, [name]);
    if (!MCP_SERVER_NAME.test(name)) {
      problems.push(`${at}: a server name must match ${MCP_SERVER_NAME.source} (it prefixes the server's tool names)`);
      continue;
    }
    if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'sse') {
      problems.push(`${at}.type: the SSE transport is deprecated in MCP and not supported; use the server's streamable HTTP endpoint`);
      continue;
    }
    const schema = raw && typeof raw === 'object' && 'url' in raw ? McpHttpServerSchema : McpStdioServerSchema;
    const parsed = schema.safeParse(raw);
    if (parsed.success) out[name] = parsed.data;
    else problems.push(...parsed.error.issues.map((issue) => `${formatIssuePath(at, issue.path)}: ${issue.message}`));
  }
  if (problems.length > 0) throw new McpConfigError(`invalid MCP server configuration: ${problems.join('; ')}`);
  return out;
}

/**
 * Reads a JSON file of MCP servers: either `{"mcpServers": {...}}` (the shape MCP clients such
 * as Claude Desktop use, so an existing file works as is) or the map itself. `${VAR}` in an
 * `env` or `headers` value is replaced by the worker's variable VAR, so the file need hold no
 * secret; a variable that is not set stops here, naming it.
 *
 * @example
 * const servers = loadMcpConfigFile('mcp.json');
 */
export function loadMcpConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): McpServersConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new McpConfigError(`MCP config ${file} cannot be read as JSON: ${(err as Error).message}`);
  }
  const map = raw && typeof raw === 'object' && 'mcpServers' in raw ? (raw as { mcpServers: unknown }).mcpServers : raw;
  if (map && typeof map === 'object' && !Array.isArray(map)) {
    for (const [name, server] of Object.entries(map)) {
      for (const key of ['env', 'headers'] as const) {
        const values = (server as Record<string, unknown> | null)?.[key];
        if (values && typeof values === 'object') {
          for (const [k, v] of Object.entries(values)) {
            if (typeof v === 'string') (values as Record<string, string>)[k] = expandVariables(v, env, `${file}: mcpServers.${name}.${key}.${k}`);
          }
        }
      }
    }
  }
  return parseMcpServers(map, `${file}: mcpServers`);
}

function expandVariables(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined) throw new McpConfigError(`${where} refers to \${${name}}, which is not set in the worker's environment`);
    return found;
  });
}

/** Merges server maps; a name given twice is a mistake (which one would win is not obvious). */
export function mergeMcpServers(...maps: (McpServersConfig | undefined)[]): McpServersConfig {
  const out: McpServersConfig = {};
  for (const map of maps) {
    for (const [name, server] of Object.entries(map ?? {})) {
      if (name in out) throw new McpConfigError(`MCP server "${name}" is configured twice`);
      out[name] = server;
    }
  }
  return out;
}
