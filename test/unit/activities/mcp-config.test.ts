import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMcpConfigFile, mergeMcpServers, parseMcpServers } from '../../../activities/mcp/mcp-config';
import { mcpResultText } from '../../../activities/mcp/mcp-output';
import { McpServers } from '../../../activities/mcp/mcp-servers';
import { mcpToolName } from '../../../activities/mcp/mcp-tools';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-mcp-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseMcpServers', () => {
  it('fills the defaults of a stdio and an HTTP server', () => {
    expect(parseMcpServers({ fs: { command: 'npx', args: ['-y', 'x'] }, web: { url: 'https://mcp.example/mcp' } })).toEqual({
      fs: { command: 'npx', args: ['-y', 'x'], env: {}, inheritEnv: false, timeoutMs: 60_000, startTimeoutMs: 30_000 },
      web: { url: 'https://mcp.example/mcp', headers: {}, timeoutMs: 60_000, startTimeoutMs: 30_000 },
    });
  });

  it('names every bad field, and refuses a bad server name, the SSE transport and a non-HTTP URL', () => {
    expect(() =>
      parseMcpServers({
        'bad name': { command: 'x' },
        a: { command: '', args: [1] },
        b: { url: 'ftp://x/mcp' },
        c: { type: 'sse', url: 'http://x/sse' },
        d: { command: 'x', tools: [] },
        e: { command: 'x', timeoutMs: -1, extra: true },
      }),
    ).toThrow(
      'invalid MCP server configuration: mcpServers["bad name"]: a server name must match ^[a-zA-Z0-9_-]{1,32}$ (it prefixes the server\'s tool names); ' +
        'mcpServers.a.command: Too small: expected string to have >=1 characters; mcpServers.a.args[0]: Invalid input: expected string, received number; ' +
        'mcpServers.b.url: must be an http:// or https:// URL; ' +
        'mcpServers.c.type: the SSE transport is deprecated in MCP and not supported; use the server\'s streamable HTTP endpoint; ' +
        'mcpServers.d.tools: Too small: expected array to have >=1 items; ' +
        'mcpServers.e.timeoutMs: Too small: expected number to be >0; mcpServers.e: Unrecognized key: "extra"',
    );
  });

  it('refuses a server given twice when maps are merged', () => {
    const one = parseMcpServers({ a: { command: 'x' } });
    expect(() => mergeMcpServers(one, parseMcpServers({ a: { command: 'y' } }))).toThrow('MCP server "a" is configured twice');
  });
});

describe('loadMcpConfigFile', () => {
  it('reads the {"mcpServers": {...}} shape MCP clients use, filling ${VAR} in env and headers from the environment', () => {
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { gh: { command: 'npx', args: ['${NOT_EXPANDED}'], env: { GITHUB_TOKEN: '${MY_TOKEN}' } }, web: { url: 'http://h/mcp', headers: { Authorization: 'Bearer ${MY_TOKEN}' } } } }),
    );
    const servers = loadMcpConfigFile(file, { MY_TOKEN: 'abc12345678' });
    expect(servers.gh).toMatchObject({ args: ['${NOT_EXPANDED}'], env: { GITHUB_TOKEN: 'abc12345678' } });
    expect(servers.web).toMatchObject({ headers: { Authorization: 'Bearer abc12345678' } });
    expect(() => loadMcpConfigFile(file, {})).toThrow(`${file}: mcpServers.gh.env.GITHUB_TOKEN refers to \${MY_TOKEN}, which is not set in the worker's environment`);
  });

  it('says which file cannot be read', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ nope');
    expect(() => loadMcpConfigFile(file)).toThrow(new RegExp(`^MCP config ${file} cannot be read as JSON: `));
  });
});

describe('names and outputs', () => {
  it('prefixes the server name and keeps only the characters a model API accepts', () => {
    expect(mcpToolName('everything', 'echo')).toBe('everything__echo');
    expect(mcpToolName('files', 'read.file/v2')).toBe('files__read_file_v2');
  });

  it('cuts a long name to 64 characters, keeping two long names that share a beginning apart', () => {
    const a = mcpToolName('server', `${'x'.repeat(70)}a`);
    const b = mcpToolName('server', `${'x'.repeat(70)}b`);
    expect(a).toMatch(/^server__x{47}_[0-9a-f]{8}$/);
    expect(a).toHaveLength(64);
    expect(a).not.toBe(b);
  });

  it('shows text as is, names binary parts and links, and falls back to structuredContent', () => {
    expect(
      mcpResultText({
        content: [
          { type: 'text', text: 'one' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'AAAAAAAA' } },
          { type: 'resource_link', uri: 'file:///c', name: 'c' },
        ],
      }),
    ).toBe('one\n[audio/wav audio, 3 bytes: not shown]\ninside\n[resource file:///b.bin (application/zip), 6 bytes: not shown]\n[resource c: file:///c]');
    expect(mcpResultText({ content: [], structuredContent: { t: 21 } })).toBe('{"t":21}');
  });

  it("treats secret-looking env values and every header value of the servers' config as secrets", () => {
    const mcp = new McpServers({
      gh: { command: 'x', env: { GITHUB_TOKEN: 'ghp_123456789', LOG_LEVEL: 'debug-verbose' } },
      web: { url: 'http://h/mcp', headers: { 'X-Api-Key': 'k-123456789' } },
    });
    expect(mcp.secrets()).toEqual([
      { name: 'MCP gh env GITHUB_TOKEN', value: 'ghp_123456789' },
      { name: 'MCP web header X-Api-Key', value: 'k-123456789' },
    ]);
  });
});
