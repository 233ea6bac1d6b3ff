import { mcpServersFromFlags, splitCommand } from '../../../client/cli/commands/mcp-flags';

describe('splitCommand', () => {
  it('splits like a shell, without running one', () => {
    expect(splitCommand(`node server.js --root '/my docs' --name "a \\"b\\"" plain\\ word`)).toEqual(['node', 'server.js', '--root', '/my docs', '--name', 'a "b"', 'plain word']);
    expect(splitCommand(`echo $HOME ~ *.ts '' "" | wc`)).toEqual(['echo', '$HOME', '~', '*.ts', '', '', '|', 'wc']);
    expect(() => splitCommand(`node 'open`, 'worker: --mcp x')).toThrow('worker: --mcp x: the single quote is not closed');
  });
});

describe('mcpServersFromFlags', () => {
  it('makes a stdio server of a command and an HTTP server of a URL; --mcp-env passes variables by name; --mcp-tools limits the tools', () => {
    const servers = mcpServersFromFlags(
      'worker',
      { mcp: ["gh=npx -y '@modelcontextprotocol/server-github'", 'docs=https://mcp.example/mcp'], 'mcp-env': ['gh=GITHUB_TOKEN,LOG'], 'mcp-tools': ['gh=search_issues, get_issue'] },
      { GITHUB_TOKEN: 'ghp_x', LOG: '1', OTHER_SECRET: 'never passed' },
    );
    expect(servers).toEqual({
      gh: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_x', LOG: '1' }, inheritEnv: false, tools: ['search_issues', 'get_issue'], timeoutMs: 60_000, startTimeoutMs: 30_000 },
      docs: { url: 'https://mcp.example/mcp', headers: {}, timeoutMs: 60_000, startTimeoutMs: 30_000 },
    });
  });

  it('says what is wrong with a flag, naming it', () => {
    const bad = (values: Parameters<typeof mcpServersFromFlags>[1], env = {}) => () => mcpServersFromFlags('worker', values, env);
    expect(bad({ mcp: ['npx server'] })).toThrow('worker: --mcp takes NAME=COMMAND, got "npx server"');
    expect(bad({ mcp: ['a='] })).toThrow('worker: --mcp a=: give the command that starts the server after "a="');
    expect(bad({ mcp: ['a=x', 'a=y'] })).toThrow('worker: --mcp a=… is given twice');
    expect(bad({ mcp: ['a b=x'] })).toThrow('invalid MCP server configuration: --mcp["a b"]: a server name must match');
    expect(bad({ mcp: ['a=x'], 'mcp-env': ['a=TOKEN'] })).toThrow("worker: --mcp-env a=TOKEN: TOKEN is not set in grove's environment");
    expect(bad({ mcp: ['a=http://h/mcp'], 'mcp-env': ['a=TOKEN'] }, { TOKEN: 't' })).toThrow('worker: --mcp-env a=TOKEN: server "a" is an HTTP server; give its headers in --mcp-config');
    expect(bad({ 'mcp-tools': ['b=x'] })).toThrow('worker: --mcp-tools b=…: no MCP server is named "b" (none is configured)');
    expect(bad({ mcp: ['a=x'], 'mcp-tools': ['a= , '] })).toThrow('worker: --mcp-tools a= , : name at least one tool');
  });
});
