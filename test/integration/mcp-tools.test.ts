import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { McpServers } from '../../activities/mcp/mcp-servers';
import type { McpServersInput } from '../../activities/mcp/mcp-config';
import { secretRedactor } from '../../activities/secrets/secret-redactor';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { createToolActivities, toolSpec, type AnyToolDefinition } from '../../activities/tools';
import { ConversationRefs } from '../../core/hash/conversation-refs';
import { userMessage, type ToolCall } from '../../core/schemas/messages';
import type { ToolSpec } from '../../core/schemas/agent-activities';
import { exampleTools } from '../../examples/tools';
import { EVERYTHING_ENTRY, everythingMcpServer, testMcpServer } from '../support/mcp-servers';
import { rejection } from '../support/rejection';
import { until } from '../../workers/worker-process';

/** Real MCP server processes (the test tree's and the reference "everything" server) behind grove's tool activities. */

let dir: string;
const servers: McpServers[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-mcp-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

function mcpServers(config: McpServersInput): McpServers {
  const mcp = new McpServers(config);
  servers.push(mcp);
  return mcp;
}

let calls = 0;
/** A tool call with an id of its own (a repeated call with the same id and activity would get its recorded result). */
function call(name: string, args: unknown): ToolCall {
  return { id: `call_${++calls}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/** A fresh activity environment, as each activity attempt has. */
const activityEnv = () => new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });

/** Tool activities over `mcp` (and the example tools), as a worker builds them. */
function setup(mcp: McpServers, opts: { maxOutputChars?: number } = {}) {
  const store = new MemoryMessageStore();
  const refs = new ConversationRefs();
  const root = refs.addPath(null, undefined, [userMessage('Use the tools.')]);
  const activities = createToolActivities({ tools: exampleTools, sources: [mcp], store, redact: secretRedactor(process.env, mcp.secrets()), ...opts });
  const env = activityEnv();
  const runTool = (c: ToolCall, offered = [c.function.name]) =>
    activityEnv().run(activities.groveRunTool, { trajectory: refs.input(root), call: c, offered }) as ReturnType<typeof activities.groveRunTool>;
  return { activities, env, runTool, store };
}

describe('MCP tools in the worker registry', () => {
  const log = () => join(dir, 'calls.log');
  let mcp: McpServers;
  let tools: ReturnType<typeof setup>;
  beforeAll(() => {
    mcp = mcpServers({ test: testMcpServer({ env: { GROVE_TEST_MCP_LOG: log(), SERVICE_TOKEN: 'tok-1234567890' }, timeoutMs: 1500 }), everything: everythingMcpServer() });
    tools = setup(mcp, { maxOutputChars: 5_000 });
  });
  const recorded = () => {
    try {
      return readFileSync(log(), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  it('describes an MCP tool with the JSON Schema the server lists (without $schema), beside defineTool tools', async () => {
    const specs = (await tools.env.run(tools.activities.groveDescribeTools, { names: ['everything__echo', 'test__weather', 'multiply', 'everything__get-env'] })) as ToolSpec[];
    expect(specs[0]).toEqual({
      name: 'everything__echo',
      description: expect.stringMatching(/echo/i),
      parameters: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
      strict: false,
      isTerminal: false,
      hasIsActive: false,
    });
    expect(specs[1].parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(specs[2]).toEqual(toolSpec(exampleTools[0]));
    expect(specs[3].parameters).toEqual({ type: 'object', properties: {} });
  });

  it('lists every tool under <server>__<tool> and skips (and says why) a tool that only runs as an MCP task', async () => {
    const { tools: listed, skipped } = await mcp.listing();
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(['test__record', 'test__weather', 'everything__echo', 'everything__get-sum']));
    for (const t of listed) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(skipped).toEqual([{ server: 'everything', tool: 'simulate-research-query', reason: expect.stringContaining('MCP task') }]);
  });

  it('runs a call on the real server and stores the tool message', async () => {
    const result = await tools.runTool(call('everything__echo', { message: 'hi there' }));
    expect(result.isError).toBe(false);
    expect(result.message).toEqual({ role: 'tool', tool_call_id: expect.stringMatching(/^call_/), content: 'Echo: hi there' });
    expect(await tools.store.get(result.ref)).toEqual(result.message);
  });

  it('keeps structuredContent as the rawOutput, and names binary content instead of pasting base64', async () => {
    const weather = await tools.runTool(call('test__weather', { city: 'Oslo' }));
    expect(weather.message).toMatchObject({ content: '{"city":"Oslo","celsius":21}', rawOutput: { city: 'Oslo', celsius: 21 } });
    const picture = await tools.runTool(call('test__picture', {}));
    expect(picture.message.content).toBe('a red dot\n[image/png image, 3.0 kB: not shown]');
    expect(picture.message).not.toHaveProperty('rawOutput');
  });

  it('answers arguments that break the schema with an error message, without calling the server', async () => {
    const before = recorded().length;
    const result = await tools.runTool(call('test__record', { text: 'wrong key' }));
    expect(result).toMatchObject({ isError: true, message: { content: "Error: invalid arguments for test__record: data must have required property 'note'" } });
    expect(recorded()).toHaveLength(before);
    const good = await tools.runTool(call('test__record', { note: 'first' }));
    expect(good.message.content).toBe(`recorded "first" (${before + 1} so far)`);
  });

  it("turns an isError result into a tool message starting with Error:, like a defineTool tool that throws", async () => {
    const result = await tools.runTool(call('test__fail', {}));
    expect(result).toMatchObject({ isError: true, message: { content: 'Error: test__fail failed: the disk is full' } });
  });

  it('cuts an output longer than the limit, saying so', async () => {
    const result = await tools.runTool(call('test__big', { chars: 12_000 }));
    expect(result.message.content).toBe(`${'x'.repeat(5_000)}\n[output cut: the first 5000 of 12000 characters; the whole output is message ${result.message.cut?.ref} in the message store]`);
  });

  it("passes the server only the env it was given, and blanks that env's secrets out of outputs", async () => {
    process.env.GROVE_TEST_WORKER_ONLY_TOKEN = 'worker-secret-value-1';
    try {
      const own = await tools.runTool(call('test__env', { name: 'SERVICE_TOKEN' }));
      expect(own.message.content).toBe('[redacted MCP test env SERVICE_TOKEN]');
      const workers = await tools.runTool(call('test__env', { name: 'GROVE_TEST_WORKER_ONLY_TOKEN' }));
      expect(workers.message.content).toBe('(not set)');
      const path = await tools.runTool(call('test__env', { name: 'PATH' }));
      expect(path.message.content).toBe(process.env.PATH);
    } finally {
      delete process.env.GROVE_TEST_WORKER_ONLY_TOKEN;
    }
  });

  it('fails the activity (retryable GroveMcpUnavailable) when the server dies mid-call, and the next call starts it again', async () => {
    const pid = (await tools.runTool(call('test__pid', {}))).message.content;
    const err = await rejection(tools.runTool(call('test__die', {})));
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'GroveMcpUnavailable', nonRetryable: false });
    expect((err as Error).message).toMatch(/MCP server "test": tools\/call die failed: .*Connection closed.*dying on purpose/);
    const again = (await tools.runTool(call('test__pid', {}))).message.content;
    expect(again).toMatch(/^\d+$/);
    expect(again).not.toBe(pid);
  });

  it('fails a call the server never answers as retryable GroveMcpTimeout; a server that still answers pings is kept', async () => {
    const pid = (await tools.runTool(call('test__pid', {}))).message.content;
    const err = await rejection(tools.runTool(call('test__hang', {})));
    expect(err).toMatchObject({ type: 'GroveMcpTimeout', nonRetryable: false, message: 'MCP server "test": tools/call hang did not answer within 1500 ms' });
    expect((await tools.runTool(call('test__pid', {}))).message.content).toBe(pid);
  });

  it('stops a server that stops answering altogether (a frozen process) and starts a fresh one', async () => {
    const pid = (await tools.runTool(call('test__pid', {}))).message.content;
    const err = await rejection(tools.runTool(call('test__freeze', { ms: 60_000 })));
    expect(err).toMatchObject({ type: 'GroveMcpTimeout' });
    const again = (await tools.runTool(call('test__pid', {}))).message.content;
    expect(again).not.toBe(pid);
  }, 30_000);

  it('aborts the call when the activity is cancelled, and ends as cancelled', async () => {
    const env = activityEnv();
    const refs = new ConversationRefs();
    const root = refs.addPath(null, undefined, [userMessage('wait')]);
    const hangs = recorded().filter((line) => line === 'hang').length;
    const pending = rejection(env.run(tools.activities.groveRunTool, { trajectory: refs.input(root), call: call('test__hang', {}), offered: ['test__hang'] }));
    await until(() => recorded().filter((line) => line === 'hang').length > hangs, 10_000, 'the call to reach the server');
    env.cancel();
    expect(await pending).toBeInstanceOf(CancelledFailure);
  });
});

describe('an MCP server over streamable HTTP', () => {
  it('serves the tools of a server the worker connects to by URL', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stderr!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('listening on port')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${out}`)));
      });
      const mcp = mcpServers({ remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer remote-token-123' }, tools: ['echo', 'get-sum'] } });
      expect(mcp.secrets().map((s) => s.value)).toEqual(['Bearer remote-token-123', 'remote-token-123']);
      const { runTool } = setup(mcp);
      const sum = await runTool(call('remote__get-sum', { a: 2, b: 40 }));
      expect(sum).toMatchObject({ isError: false, message: { content: expect.stringContaining('42') } });
      expect((await mcp.tools()).map((t) => t.name)).toEqual(['remote__echo', 'remote__get-sum']);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('MCP server configuration and listing problems', () => {
  it('reports two MCP tools whose names become one grove name, and an allow-list resolves it', async () => {
    const clash = mcpServers({ files: testMcpServer({ env: { GROVE_TEST_MCP_COLLIDE: '1' } }) });
    await expect(clash.tools()).rejects.toThrow('MCP server "files" has tools "read.file" and "read_file", which both become "files__read_file"');
    const allowed = mcpServers({ files: testMcpServer({ env: { GROVE_TEST_MCP_COLLIDE: '1' }, tools: ['read_file', 'pid'] }) });
    expect((await allowed.tools()).map((t) => [t.name, t.mcp.tool])).toEqual([
      ['files__pid', 'pid'],
      ['files__read_file', 'read_file'],
    ]);
  });

  it('refuses an allow-list naming a tool the server does not have', async () => {
    const typo = mcpServers({ everything: everythingMcpServer({ tools: ['echo', 'ech0'] }) });
    await expect(typo.tools()).rejects.toThrow(/MCP server "everything" has no tool "ech0" \(its "tools" allow-list names it\); it lists: echo, /);
  });

  it('reports a name taken by both a worker tool and an MCP tool', async () => {
    const mcp = mcpServers({ everything: everythingMcpServer({ tools: ['echo'] }) });
    const echo = { ...exampleTools[0], name: 'everything__echo' } as AnyToolDefinition;
    const activities = createToolActivities({ tools: [echo], sources: [mcp], store: new MemoryMessageStore() });
    const err = await rejection(activityEnv().run(activities.groveDescribeTools, { names: ['everything__echo'] }));
    expect((err as Error).message).toContain('two tools are named "everything__echo" (one is tool "echo" of MCP server "everything"); tool names must be unique on a worker');
  });

  it('names the server and the cause when a server cannot be started', async () => {
    const missing = mcpServers({ nothere: { command: join(dir, 'no-such-server') } });
    const err = await rejection(missing.tools());
    expect(err).toMatchObject({ type: 'GroveMcpUnavailable' });
    expect((err as Error).message).toMatch(/^MCP server "nothere": could not be started \(stdio: .*no-such-server\): .*ENOENT/);
  });

  it('gives up on a server that never finishes starting, within its startTimeoutMs', async () => {
    // `sleep` starts, then never answers the initialize request.
    const slow = mcpServers({ mute: { command: 'sleep', args: ['600'], startTimeoutMs: 800 } });
    const err = await rejection(slow.tools());
    expect(err).toMatchObject({ type: 'GroveMcpTimeout', message: 'MCP server "mute": did not start within 800 ms (stdio: sleep)' });
  });
});
