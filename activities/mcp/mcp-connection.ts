import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpCallResult, McpTool } from './mcp-types';
import { activityContext } from '../activity-context';
import type { McpServerConfig } from './mcp-config';
import { mcpFailure } from './mcp-errors';
import { loadMcpSdk } from './mcp-sdk';

/** How long a server that timed out gets to answer a ping before it is taken for hung and stopped. */
const PING_TIMEOUT_MS = 5_000;
/** How much of a stdio server's stderr is kept, to say why it died. */
const STDERR_TAIL = 2_000;

interface Live {
  client: Client;
  transport: Transport;
  closed: boolean;
}

/**
 * One MCP server of a worker: started (stdio) or connected to (streamable HTTP) on first use,
 * kept for every later call, and started again on the next use after it died or hung. Every
 * request has a deadline — starting and listing `startTimeoutMs`, a call `timeoutMs` — so a
 * server that never answers costs a failed attempt, never a stuck worker.
 *
 * Errors come in two kinds. What the server answered, an error response included, is returned
 * or thrown as a plain `Error` (the tool activity turns it into a tool message the model reads).
 * Anything else — the server could not start, died, closed the connection, or did not answer
 * in time — is a retryable `ApplicationFailure` (`GroveMcpUnavailable`, `GroveMcpTimeout`)
 * that fails the activity, so Temporal retries it by the run's policy.
 *
 * @example
 * const server = new McpConnection('everything', parseMcpServers({ everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } }).everything);
 * const tools = await server.listTools();
 * const result = await server.callTool('echo', { message: 'hi' });
 * await server.close();
 */
export class McpConnection {
  /** How many times the server was started or connected to (more than 1: it was restarted). */
  starts = 0;
  private live?: Promise<Live>;
  private stderrTail = '';
  private closing = false;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
  ) {}

  /** Every tool the server lists (all pages). */
  async listTools(): Promise<McpTool[]> {
    const timeout = this.config.startTimeoutMs;
    return this.request('tools/list', timeout, undefined, async (client) => {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    });
  }

  /** Calls one tool by its MCP name; `signal` aborts the call (the server is told it was cancelled). */
  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult> {
    const timeout = this.config.timeoutMs;
    return this.request(`tools/call ${tool}`, timeout, signal, async (client) => {
      return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout, signal })) as McpCallResult;
    });
  }

  /** Stops the server (stdio: closes its stdin, then SIGTERM, then SIGKILL) or ends the HTTP session. */
  async close(): Promise<void> {
    this.closing = true;
    const live = this.live;
    this.live = undefined;
    if (live) await live.then((l) => this.shutdown(l), () => undefined);
  }

  /** What the server printed last on stderr (stdio servers), to explain a failure. */
  get lastOutput(): string {
    return this.stderrTail.trim();
  }

  private async request<T>(what: string, timeoutMs: number, signal: AbortSignal | undefined, work: (client: Client) => Promise<T>): Promise<T> {
    const live = await this.connected();
    try {
      return await work(live.client);
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      const { McpError, ErrorCode } = loadMcpSdk().types;
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        await this.checkAlive(live);
        throw mcpFailure('Timeout', this.name, `${what} did not answer within ${timeoutMs} ms`, err);
      }
      if ((err as Error)?.name === 'ZodError') throw new Error(`the server's answer is not a valid MCP result: ${(err as Error).message.slice(0, 300)}`);
      if (live.closed || (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) || !(err instanceof McpError)) {
        this.drop(live);
        throw mcpFailure('Unavailable', this.name, `${what} failed: ${this.describeLoss(err)}`, err);
      }
      throw err; // the server answered with an error: the caller's to report
    }
  }

  /** The live connection, starting the server when there is none (or it died). */
  private async connected(): Promise<Live> {
    if (this.closing) throw mcpFailure('Unavailable', this.name, 'the worker is shutting down');
    const current = this.live;
    if (current) {
      const live = await current.catch(() => undefined);
      if (live && !live.closed) return live;
      if (this.live === current) this.live = undefined;
    }
    if (!this.live) {
      if (this.starts > 0) activityContext()?.log.warn(`MCP server "${this.name}" is gone; starting it again`, { lastOutput: this.lastOutput });
      const starting = this.start();
      this.live = starting;
      starting.catch(() => {
        if (this.live === starting) this.live = undefined;
      });
    }
    return this.live;
  }

  private async start(): Promise<Live> {
    this.starts++;
    this.stderrTail = '';
    const sdk = loadMcpSdk();
    const transport = this.transport();
    const client = new sdk.Client({ name: 'grove', version: '1' }, { capabilities: {} });
    const live: Live = { client, transport, closed: false };
    client.onclose = () => {
      live.closed = true;
    };
    client.onerror = () => {}; // a bad line on stdout or a dropped stream: what it broke surfaces as the request's error
    const deadline = this.config.startTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport, { timeout: deadline }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new sdk.types.McpError(sdk.types.ErrorCode.RequestTimeout, 'start timed out')), deadline);
        }),
      ]);
      return live;
    } catch (err) {
      await this.shutdown(live);
      const timedOut = err instanceof sdk.types.McpError && err.code === sdk.types.ErrorCode.RequestTimeout;
      throw timedOut
        ? mcpFailure('Timeout', this.name, `did not start within ${deadline} ms (${this.describe()})${this.outputNote()}`, err)
        : mcpFailure('Unavailable', this.name, `could not be started (${this.describe()}): ${this.describeLoss(err)}`, err);
    } finally {
      clearTimeout(timer);
    }
  }

  private transport(): Transport {
    const sdk = loadMcpSdk();
    const config = this.config;
    if ('url' in config) {
      return new sdk.StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    }
    const env = config.inheritEnv ? { ...definedOnly(process.env), ...config.env } : { ...sdk.getDefaultEnvironment(), ...config.env };
    const transport = new sdk.StdioClientTransport({ command: config.command, args: config.args, env, cwd: config.cwd, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
    });
    return transport;
  }

  /** After a timeout: a server that does not answer a ping either is hung, and is stopped so the next attempt starts a fresh one. */
  private async checkAlive(live: Live): Promise<void> {
    try {
      await live.client.ping({ timeout: PING_TIMEOUT_MS });
    } catch {
      this.drop(live);
    }
  }

  private drop(live: Live): void {
    live.closed = true;
    void this.shutdown(live);
  }

  private async shutdown(live: Live): Promise<void> {
    live.closed = true;
    await live.client.close().catch(() => undefined);
  }

  private describe(): string {
    return 'url' in this.config ? `streamable HTTP at ${redactUrl(this.config.url)}` : `stdio: ${this.config.command}`;
  }

  private describeLoss(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    return `${message}${this.outputNote()}`;
  }

  private outputNote(): string {
    const tail = this.lastOutput;
    return tail ? `; its last output: ${tail.split('\n').slice(-5).join(' | ').slice(-500)}` : '';
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** A URL without its password (it is printed in errors and logs). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
