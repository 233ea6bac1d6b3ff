import { join } from 'node:path';
import type { McpStdioServerConfig } from '../../activities/mcp/mcp-config';

const ROOT = join(__dirname, '..', '..');

/** The test tree's own MCP server (test/fixtures/mcp/test-server.ts), as a stdio server config. */
export function testMcpServer(over: Partial<McpStdioServerConfig> = {}) {
  return { command: process.execPath, args: ['-r', 'tsx/cjs', join(ROOT, 'test', 'fixtures', 'mcp', 'test-server.ts')], cwd: ROOT, ...over };
}

/** The MCP project's reference server (npm `@modelcontextprotocol/server-everything`) over stdio. */
export function everythingMcpServer(over: Partial<McpStdioServerConfig> = {}) {
  return { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], ...over };
}

/** The reference server's entry point (it has no `exports`; its bin is this file). */
export const EVERYTHING_ENTRY = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
