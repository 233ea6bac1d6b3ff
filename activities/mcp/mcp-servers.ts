import { memoUntilFailure } from '../memo-until-failure';
import { knownSecrets } from '../secrets/secret-redactor';
import { McpConnection } from './mcp-connection';
import { parseMcpServers, type McpServersConfig, type McpServersInput } from './mcp-config';
import { mcpToolDefinitions, type McpToolDefinition, type SkippedMcpTool } from './mcp-tools';

/** What the worker's MCP servers serve. */
export interface McpListing {
  tools: McpToolDefinition[];
  /** Tools a server lists that the worker does not serve, and why. */
  skipped: SkippedMcpTool[];
}

/**
 * The MCP servers of one worker. Each is started (or connected to) once, when the worker starts
 * or on first use, and listed once: the tools it serves become grove tools named
 * `<server>__<tool>`, beside the worker's own `defineTool` tools in one registry. A server that
 * dies is started again by the next call that needs it; `close` stops them all.
 *
 * The listing is kept for the worker's life: a server whose tools change needs a worker restart
 * to serve the new ones (runs already record the schemas they started with).
 *
 * @example
 * const mcp = new McpServers({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
 * const { tools } = await mcp.listing(); // everything__echo, everything__get-sum, ...
 * await mcp.close();
 */
export class McpServers {
  readonly config: McpServersConfig;
  readonly connections: McpConnection[];
  /** Starts every server (in parallel) and lists its tools; the first call does the work, later ones share it. A failure is not kept: the next call tries again. */
  readonly listing: () => Promise<McpListing> = memoUntilFailure(() => this.list());

  constructor(config: McpServersInput) {
    this.config = parseMcpServers(config);
    this.connections = Object.entries(this.config).map(([name, server]) => new McpConnection(name, server));
  }

  /** Whether any server is configured. */
  get size(): number {
    return this.connections.length;
  }

  /** The grove tools of every server. */
  async tools(): Promise<McpToolDefinition[]> {
    return (await this.listing()).tools;
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  /**
   * Values in the servers' configuration that must not show up in a tool output or an error:
   * `env` values named like secrets (`…TOKEN`, `…KEY`, …; see `secretRedactor`) and every
   * header value (an `Authorization` header is the usual way to pass a key).
   */
  secrets(): { name: string; value: string }[] {
    const found: { name: string; value: string }[] = [];
    for (const [server, config] of Object.entries(this.config)) {
      if ('url' in config) {
        for (const [header, value] of Object.entries(config.headers)) {
          // `Bearer <token>`: the token alone is the secret.
          for (const part of new Set([value, value.replace(/^\S+\s+/, '')])) {
            if (part.length >= 8) found.push({ name: `MCP ${server} header ${header}`, value: part });
          }
        }
      } else {
        found.push(...knownSecrets(config.env).map(({ name, value }) => ({ name: `MCP ${server} env ${name}`, value })));
      }
    }
    return found;
  }

  private async list(): Promise<McpListing> {
    const listings = await Promise.all(
      this.connections.map(async (connection) => mcpToolDefinitions(connection, await connection.listTools(), this.config[connection.name].tools)),
    );
    return { tools: listings.flatMap((l) => l.tools), skipped: listings.flatMap((l) => l.skipped) };
  }
}
