import { groveHome } from '../../runtime/paths';
import { claimDevDatabase, devDatabaseFile } from './dev-database';
import { temporalSettings, type TemporalConnectionSettings } from '../../temporal/connection-options';
import { answers, startDevServer, type DevServer } from '../temporal-server/dev-server';
import { isListening } from '../temporal-server/ports';

export interface TemporalTarget {
  settings: TemporalConnectionSettings;
  /** True when this process started the server (and `stop` stops it). */
  started: boolean;
  stop(): Promise<void>;
}

/**
 * The Temporal server to use for local work (`grove dev`, the demo): the configured one
 * (`TEMPORAL_ADDRESS`, a `TEMPORAL_PROFILE`, see `temporalSettings`); else a dev server already
 * answering on the local port; else a new dev server with its state in `.grove/temporal.db`, so
 * runs survive restarts and stay visible in the UI. Ports: `GROVE_TEMPORAL_PORT` (7233) and
 * `GROVE_UI_PORT` (port + 1000). The database follows the port (`temporal-<port>.db` on any port
 * but 7233), and a database another live grove process holds is refused in one line. With `supervise`, a server it started is started again when it
 * dies; it never outlives this process.
 *
 * @example
 * const temporal = await ensureTemporal({ log: console.log });
 * console.log(temporal.settings.uiUrl); // http://127.0.0.1:8233
 */
export async function ensureTemporal(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv; supervise?: boolean } = {}): Promise<TemporalTarget> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const settings = temporalSettings(env);
  if (!settings.local) {
    log(`temporal: using ${settings.address} (namespace ${settings.namespace}, ${settings.source})`);
    return { settings, started: false, stop: async () => {} };
  }
  const [host, portText] = settings.address.split(':');
  const port = Number(portText);
  const uiPort = Number(new URL(settings.uiUrl!).port);
  if (await isListening(host, port)) {
    if (await answers(settings.address, settings.namespace).catch(() => false)) {
      log(`temporal: using the dev server already running on ${settings.address}`);
      return { settings, started: false, stop: async () => {} };
    }
    throw new Error(`port ${port} is in use by something that is not a Temporal server: set GROVE_TEMPORAL_PORT to a free port`);
  }
  const uiFree = !(await isListening(host, uiPort));
  const dbFile = devDatabaseFile(groveHome(env), port);
  const claim = claimDevDatabase(dbFile, port);
  const start = () => startDevServer({ port, uiPort: uiFree ? uiPort : false, dbFile, log });
  let server: DevServer;
  try {
    server = await start();
  } catch (err) {
    claim.release();
    throw err;
  }
  let stopped = false;
  if (opts.supervise) {
    // A dev server that dies is started again on the same database: runs resume where they were.
    const watch = (current: DevServer): void => {
      void current.exited.then(async (code) => {
        if (stopped) return;
        log(`temporal: the dev server exited (code ${code}); starting it again on the same database`);
        for (let attempt = 1; !stopped; attempt++) {
          try {
            server = await start();
            watch(server);
            return;
          } catch (err) {
            log(`temporal: restart ${attempt} failed: ${(err as Error).message}`);
            await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** attempt)));
          }
        }
      });
    };
    watch(server);
  }
  return {
    settings: { ...settings, uiUrl: server.uiUrl },
    started: true,
    stop: async () => {
      stopped = true;
      await server.stop();
      claim.release();
    },
  };
}
