import { loadMcpConfigFile, mergeMcpServers, parseMcpServers, type McpServerInput, type McpServersConfig } from '../../../activities/mcp/mcp-config';
import { UsageError } from '../usage-error';

/** The MCP options of `grove worker`, `grove dev` and `grove tools` (for `parseCommandArgs`). */
export const MCP_OPTIONS = {
  mcp: { type: 'string', multiple: true },
  'mcp-config': { type: 'string' },
  'mcp-env': { type: 'string', multiple: true },
  'mcp-tools': { type: 'string', multiple: true },
} as const;

export const MCP_HELP = `  --mcp NAME=COMMAND (repeatable) also serves the tools of an MCP server, as NAME__TOOL: COMMAND
  is started over stdio, split into words like a shell does (quotes group, a backslash escapes;
  no variables, globs or pipes: no shell runs it), e.g. --mcp 'everything=npx -y
  @modelcontextprotocol/server-everything'; a single http(s):// URL is a streamable HTTP server.
  --mcp-env NAME=VAR[,VAR] passes these variables of grove's environment to server NAME (it gets
  no others besides HOME, LOGNAME, PATH, SHELL, TERM, USER); --mcp-tools NAME=TOOL[,TOOL] serves
  only these of its tools; --mcp-config FILE (and GROVE_MCP_CONFIG) reads servers from JSON
  ({"mcpServers": {...}}: env, headers, allow-lists, timeouts; see docs/mcp.md).`;

type McpValues = { mcp?: string[]; 'mcp-config'?: string; 'mcp-env'?: string[]; 'mcp-tools'?: string[] };

/**
 * The MCP servers the flags configure (`GROVE_MCP_CONFIG` and a worker module's `mcpServers`
 * are added by the worker); empty when none.
 *
 * @example
 * mcpServersFromFlags('worker', { mcp: ['everything=npx -y @modelcontextprotocol/server-everything'], 'mcp-tools': ['everything=echo'] })
 * // { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], tools: ['echo'], ... } }
 */
export function mcpServersFromFlags(command: string, values: McpValues, env: NodeJS.ProcessEnv = process.env): McpServersConfig {
  const fromFlags: Record<string, McpServerInput> = {};
  for (const flag of values.mcp ?? []) {
    const [name, spec] = nameAndValue(command, 'mcp', flag);
    if (name in fromFlags) throw new UsageError(`${command}: --mcp ${name}=… is given twice`);
    const words = splitCommand(spec, `${command}: --mcp ${flag}`);
    if (words.length === 0) throw new UsageError(`${command}: --mcp ${flag}: give the command that starts the server after "${name}="`);
    fromFlags[name] = words.length === 1 && /^https?:\/\//i.test(words[0]) ? { url: words[0] } : { command: words[0], args: words.slice(1) };
  }
  const servers = mergeMcpServers(
    parseMcpServers(fromFlags, '--mcp'),
    values['mcp-config'] ? loadMcpConfigFile(values['mcp-config'], env) : undefined,
  );
  for (const flag of values['mcp-env'] ?? []) {
    const [name, list] = nameAndValue(command, 'mcp-env', flag);
    const server = known(command, 'mcp-env', servers, name);
    if ('url' in server) throw new UsageError(`${command}: --mcp-env ${flag}: server "${name}" is an HTTP server; give its headers in --mcp-config`);
    for (const variable of items(list)) {
      const value = env[variable];
      if (value === undefined) throw new UsageError(`${command}: --mcp-env ${flag}: ${variable} is not set in grove's environment`);
      server.env[variable] = value;
    }
  }
  for (const flag of values['mcp-tools'] ?? []) {
    const [name, list] = nameAndValue(command, 'mcp-tools', flag);
    const tools = items(list);
    if (tools.length === 0) throw new UsageError(`${command}: --mcp-tools ${flag}: name at least one tool`);
    known(command, 'mcp-tools', servers, name).tools = tools;
  }
  return servers;
}

/**
 * Splits a command line into words the way a POSIX shell does, without running one: blanks
 * separate words, '…' keeps everything literally, "…" keeps everything but `\"` and `\\`, and a
 * backslash outside quotes escapes the next character. `$VAR`, `~`, globs, pipes and redirections
 * are plain characters.
 *
 * @example
 * splitCommand(`node server.js --root '/my docs' --name "a \\"b\\""`) // ['node', 'server.js', '--root', '/my docs', '--name', 'a "b"']
 */
export function splitCommand(text: string, where = 'command'): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new UsageError(`${where}: the ${quote === '"' ? 'double' : 'single'} quote is not closed`);
  if (word !== undefined) words.push(word);
  return words;
}

function nameAndValue(command: string, option: string, flag: string): [string, string] {
  const at = flag.indexOf('=');
  if (at <= 0) throw new UsageError(`${command}: --${option} takes NAME=${option === 'mcp' ? 'COMMAND' : 'A,B'}, got "${flag}"`);
  return [flag.slice(0, at), flag.slice(at + 1)];
}

function known(command: string, option: string, servers: McpServersConfig, name: string) {
  const server = servers[name];
  if (!server) throw new UsageError(`${command}: --${option} ${name}=…: no MCP server is named "${name}" (${Object.keys(servers).join(', ') || 'none is configured'})`);
  return server;
}

function items(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
