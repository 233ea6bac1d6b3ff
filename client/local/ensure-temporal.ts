import { join } from 'node:path';
import { groveHome } from '../../runtime/paths';
import { answers, startDevServer } from '../temporal-server/dev-server';
import { connectionSettingsFromEnv, type TemporalConnectionSettings } from '../temporal-server/connection-options';
import { isListening } from '../temporal-server/ports';

export interface TemporalTarget {
  settings: TemporalConnectionSettings;
  /** Base URL of the Web UI, when known. */
  uiUrl?: string;
  /** True when this process started the server (and `stop` stops it). */
  started: boolean;
  stop(): Promise<void>;
}

/**
 * The Temporal server to use for local work: `TEMPORAL_ADDRESS` when set; else a dev server
 * already answering on the local port (e.g. from `grove dev`); else a new dev server with its
 * state in `.grove/temporal.db`, so runs survive restarts and stay visible in the UI.
 * Ports: `GROVE_TEMPORAL_PORT` (7233) and `GROVE_UI_PORT` (8233).
 *
 * @example
 * const temporal = await ensureTemporal({ log: console.log });
 * console.log(temporal.uiUrl); // http://127.0.0.1:8233
 */
export async function ensureTemporal(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {}): Promise<TemporalTarget> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const remote = connectionSettingsFromEnv(env);
  if (remote) {
    log(`temporal: using TEMPORAL_ADDRESS=${remote.address} (namespace ${remote.namespace})`);
    return { settings: remote, uiUrl: env.GROVE_UI_URL, started: false, stop: async () => {} };
  }
  const host = '127.0.0.1';
  const port = Number(env.GROVE_TEMPORAL_PORT ?? 7233);
  const uiPort = Number(env.GROVE_UI_PORT ?? port + 1000);
  const address = `${host}:${port}`;
  const settings = { address, namespace: 'default' };
  if (await isListening(host, port)) {
    if (await answers(address, 'default').catch(() => false)) {
      log(`temporal: using the dev server already running on ${address}`);
      return { settings, uiUrl: `http://${host}:${uiPort}`, started: false, stop: async () => {} };
    }
    throw new Error(`port ${port} is in use by something that is not a Temporal server: set GROVE_TEMPORAL_PORT to a free port`);
  }
  const server = await startDevServer({
    port,
    uiPort: (await isListening(host, uiPort)) ? false : uiPort,
    dbFile: join(groveHome(env), 'temporal.db'),
    log,
  });
  return { settings, uiUrl: server.uiUrl, started: true, stop: () => server.stop() };
}

/** The UI page of one run. */
export function runUrl(uiUrl: string | undefined, namespace: string, workflowId: string): string | undefined {
  return uiUrl ? `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}` : undefined;
}
