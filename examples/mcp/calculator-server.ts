/**
 * A small MCP server (stdio) with the Saplings quickstart's `multiply` tool, written with the
 * MCP SDK: what docs/mcp.md serves to a grove worker. Any MCP server works the same way; this
 * one needs nothing but this repository.
 *
 *   npx grove tools --mcp 'calc=node -r tsx/cjs examples/mcp/calculator-server.ts'
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'calculator', version: '1.0.0' });

server.registerTool(
  'multiply',
  {
    description: 'Multiplies two numbers and returns the result number.',
    inputSchema: { a: z.number().describe('The number to multiply.'), b: z.number().describe('The number to multiply by.') },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a * b) }] }),
);

void server.connect(new StdioServerTransport());
