import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { searchAttributeFlags } from '../../workflows/search-attributes';
import { resolveTemporalCli } from './cli-binary';
import { spawnGuarded } from '../local/guarded-spawn';

export interface DevServerOptions {
  /** Temporal CLI binary; resolved with `resolveTemporalCli` when omitted. */
  cliPath?: string;
  ip?: string;
  port: number;
  /** Web UI port; `false` runs headless (tests). */
  uiPort: number | false;
  /** SQLite file for state that survives restarts; in-memory when omitted. */
  dbFile?: string;
  namespace?: string;
  /** Extra `--dynamic-config-value KEY=JSON` pairs, e.g. a low continue-as-new suggestion for tests. */
  dynamicConfig?: Record<string, unknown>;
  log?: (line: string) => void;
}

export interface DevServer {
  address: string;
  namespace: string;
  uiUrl?: string;
  pid: number;
  /** Resolves when the server process ends (by `stop` or on its own). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` with grove's search attributes registered and waits until
 * its frontend answers. The server never outlives this process (`spawnGuarded`); `stop` sends
 * SIGTERM.
 *
 * @example
 * const server = await startDevServer({ port: 7233, uiPort: 8233, dbFile: '.grove/temporal.db' });
 * console.log(server.uiUrl); // http://127.0.0.1:8233
 * await server.stop();
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const log = opts.log ?? (() => {});
  const cliPath = opts.cliPath ?? (await resolveTemporalCli({ log })).path;
  const ip = opts.ip ?? '127.0.0.1';
  const namespace = opts.namespace ?? 'default';
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(opts.port), '--namespace', namespace, '--log-level', 'warn'];
  if (opts.uiPort === false) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort), '--ui-ip', ip);
  if (opts.dbFile) {
    mkdirSync(dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  args.push(...searchAttributeFlags());
  for (const [key, value] of Object.entries(opts.dynamicConfig ?? {})) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }

  // Guarded: the server never outlives this process, whatever ends it.
  const server = spawnGuarded(cliPath, args);
  let stderr = '';
  server.child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const address = `${ip}:${opts.port}`;

  const ready = await waitUntilReady(address, namespace, 60_000, server.exited);
  if (!ready.ok) {
    await server.stop(1000);
    const tail = stderr.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`Temporal dev server on ${address} did not start: ${ready.reason}${tail ? ` (server said: ${tail})` : ''}`);
  }
  log(`temporal: dev server ready on ${address}${opts.uiPort === false ? '' : `, UI http://${ip}:${opts.uiPort}`}`);
  return {
    address,
    namespace,
    uiUrl: opts.uiPort === false ? undefined : `http://${ip}:${opts.uiPort}`,
    pid: server.child.pid ?? -1,
    exited: server.exited,
    stop: () => server.stop(),
  };
}

async function waitUntilReady(
  address: string,
  namespace: string,
  timeoutMs: number,
  exited: Promise<number | null>,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    if (exitCode !== undefined) return { ok: false, reason: `the process exited with code ${exitCode}` };
    if (await answers(address, namespace).catch((err: Error) => ((lastError = err.message), false))) return { ok: true };
    await new Promise((r) => setTimeout(r, 200));
  }
  return { ok: false, reason: `no answer within ${timeoutMs / 1000} s (${lastError})` };
}

/** Whether a Temporal frontend at `address` serves `namespace`. */
export async function answers(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } finally {
    await connection.close();
  }
}
