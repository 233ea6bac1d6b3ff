/**
 * MCP tool servers as grove tools: a worker starts (stdio) or connects to (streamable HTTP) MCP
 * servers and serves their tools as `<server>__<tool>` beside its own. See docs/mcp.md.
 *
 * @example
 * import { McpServers } from 'grove-agents/activities';
 * const mcp = new McpServers({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
 * console.log((await mcp.tools()).map((t) => t.name));
 * await mcp.close();
 */
export { McpServers, type McpListing } from './mcp-servers';
export { McpConnection } from './mcp-connection';
export { McpFailure } from './mcp-errors';
export { mcpToolName, type McpToolDefinition, type SkippedMcpTool } from './mcp-tools';
export { mcpResultText } from './mcp-output';
export type { McpCallResult, McpContent, McpTool } from './mcp-types';
export {
  loadMcpConfigFile,
  mcpServersJsonSchema,
  McpConfigError,
  parseMcpServers,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpServerInput,
  type McpServersConfig,
  type McpServersInput,
  type McpStdioServerConfig,
} from './mcp-config';
