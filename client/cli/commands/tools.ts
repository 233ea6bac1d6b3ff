import { groveTools } from '../../../activities/grove-activities';
import { McpServers } from '../../../activities/mcp/mcp-servers';
import type { McpToolDefinition } from '../../../activities/mcp/mcp-tools';
import { toolRegistry, toolSpec } from '../../../activities/tools';
import { loadWorkerModule, workerMcpServers } from '../../../workers/worker-module';
import { parseCommandArgs } from '../usage-error';
import { MCP_OPTIONS, mcpServersFromFlags } from './mcp-flags';

/**
 * `grove tools`: the tools a worker started with the same options would serve — its module's,
 * grove's built-ins and every MCP server's (started, listed, stopped) — each with the JSON
 * Schema the model is sent, checked the way the worker checks them (a bad name, a collision or a
 * server that cannot start fails here the same way).
 */
export async function toolsCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('tools', args, { module: { type: 'string' }, json: { type: 'boolean' }, ...MCP_OPTIONS });
  const given = mcpServersFromFlags('tools', values);
  const modulePath = values.module ?? process.env.GROVE_WORKER_MODULE;
  const extra = modulePath ? loadWorkerModule(modulePath) : {};
  const mcp = new McpServers(workerMcpServers(process.env, extra, given));
  try {
    const { tools: mcpTools, skipped } = await mcp.listing();
    const own = groveTools(extra.tools);
    const all = [...toolRegistry([...own, ...mcpTools]).values()];
    const source = (tool: (typeof all)[number]) => {
      const from = (tool as Partial<McpToolDefinition>).mcp;
      if (from) return { kind: 'mcp' as const, server: from.server, tool: from.tool };
      return extra.tools?.includes(tool) ? { kind: 'module' as const, module: modulePath } : { kind: 'built-in' as const };
    };
    if (values.json) {
      io.out(JSON.stringify({ tools: all.map((t) => ({ ...toolSpec(t), source: source(t) })), skipped }, null, 2));
      return;
    }
    for (const tool of all) {
      const spec = toolSpec(tool);
      const from = source(tool);
      io.out(`${spec.name} — ${spec.description}`);
      io.out(`  from: ${from.kind === 'mcp' ? `MCP server ${from.server} (tool "${from.tool}")` : from.kind === 'module' ? `worker module ${from.module}` : 'grove (built in)'}`);
      io.out(`  parameters: ${JSON.stringify(spec.parameters, null, 2).replace(/\n/g, '\n  ')}`);
    }
    for (const s of skipped) io.out(`not served: MCP server ${s.server}'s tool "${s.tool}": ${s.reason}`);
  } finally {
    await mcp.close();
  }
}
