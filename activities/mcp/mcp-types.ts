/**
 * The parts of MCP's tool types grove reads, spelled out here so that grove's published
 * declarations do not depend on `@modelcontextprotocol/sdk`: the SDK is an optional peer
 * dependency, and a TypeScript project without it compiles against grove (`skipLibCheck` on or
 * off). The SDK's `Tool` and `CallToolResult` fit these shapes.
 */

/** A tool an MCP server lists (`tools/list`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  /** The JSON Schema of its arguments (an object schema). */
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** How the tool runs: `taskSupport: 'required'` marks a tool that runs only as an MCP task. */
  execution?: { taskSupport?: string };
  [key: string]: unknown;
}

/** One part of a tool's result. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; name: string; uri: string; description?: string };

/** What a tool call returns (`tools/call`). */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}
