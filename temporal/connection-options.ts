import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';

/**
 * Where grove finds Temporal: one answer for every command, `GroveClient.connect()` and every
 * worker, and it says which setting chose it (so a failure can name it).
 */
export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  apiKey?: string;
  tls?: NativeConnectionOptions['tls'];
  /** gRPC metadata (headers) from the profile or `TEMPORAL_GRPC_META_*`. */
  metadata?: NativeConnectionOptions['metadata'];
  /** Which setting chose the address, e.g. `from TEMPORAL_ADDRESS`, `from profile "prod" in ~/.config/temporalio/temporal.toml`. */
  source: string;
  /** Base URL of the Web UI, when known (`GROVE_UI_URL`, the local dev server's UI, Temporal Cloud). */
  uiUrl?: string;
  /** True for the local dev server grove starts and reuses (`grove dev`). */
  local: boolean;
}

export class TemporalConfigError extends Error {
  override name = 'TemporalConfigError';
}

/**
 * The Temporal connection settings, the Temporal way: `@temporalio/envconfig` reads the standard
 * config file (`TEMPORAL_CONFIG_FILE`, default `~/.config/temporalio/temporal.toml`) and profile
 * (`TEMPORAL_PROFILE`, default `default`), overridden by the standard variables — `TEMPORAL_ADDRESS`,
 * `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY`, `TEMPORAL_TLS*`, `TEMPORAL_GRPC_META_*`. With no address
 * configured anywhere, grove uses its local dev server on 127.0.0.1:`GROVE_TEMPORAL_PORT` (7233),
 * whose UI is on `GROVE_UI_PORT` (port + 1000). `GROVE_UI_URL` sets the UI link for any server.
 *
 * @example
 * const settings = temporalSettings(); // { address: '127.0.0.1:7233', source: 'the default local dev server: …', local: true, ... }
 */
export function temporalSettings(env: NodeJS.ProcessEnv = process.env): TemporalConnectionSettings {
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  let loaded: ReturnType<typeof loadClientConnectConfig>;
  try {
    loaded = loadClientConnectConfig({ overrideEnvVars: vars, profile: vars.TEMPORAL_PROFILE });
  } catch (err) {
    throw new TemporalConfigError(`cannot read the Temporal client configuration (${configFile(vars)}): ${(err as Error).message}`);
  }
  const options = loaded.connectionOptions;
  const namespace = loaded.namespace ?? 'default';
  const profileName = vars.TEMPORAL_PROFILE ?? 'default';
  if (options.address) {
    if (!/^[^\s:/]+:\d+$/.test(options.address)) {
      throw new TemporalConfigError(`Temporal address "${options.address}" (from ${vars.TEMPORAL_ADDRESS ? 'TEMPORAL_ADDRESS' : `profile "${profileName}"`}) is not host:port, e.g. localhost:7233 or my-ns.a1b2c.tmprl.cloud:7233`);
    }
    const source = vars.TEMPORAL_ADDRESS ? 'from TEMPORAL_ADDRESS' : `from profile "${profileName}" in ${configFile(vars)}`;
    const cloud = /\.tmprl\.cloud:\d+$/.test(options.address) ? `https://cloud.temporal.io` : undefined;
    return {
      address: options.address,
      namespace,
      apiKey: typeof options.apiKey === 'string' ? options.apiKey : undefined,
      tls: options.tls,
      metadata: options.metadata,
      source,
      uiUrl: vars.GROVE_UI_URL ?? cloud,
      local: false,
    };
  }
  const port = portOf(vars, 'GROVE_TEMPORAL_PORT', 7233);
  const uiPort = portOf(vars, 'GROVE_UI_PORT', port + 1000);
  return {
    address: `127.0.0.1:${port}`,
    namespace,
    source: vars.GROVE_TEMPORAL_PORT ? 'from GROVE_TEMPORAL_PORT' : 'the default local dev server: no TEMPORAL_ADDRESS or profile address is set',
    uiUrl: vars.GROVE_UI_URL ?? `http://127.0.0.1:${uiPort}`,
    local: true,
  };
}

/** The options of a `Connection` / `NativeConnection` for these settings. */
export function connectionOptions(settings: TemporalConnectionSettings, connectTimeoutMs = 5_000) {
  return {
    address: settings.address,
    tls: settings.tls,
    apiKey: settings.apiKey,
    metadata: settings.metadata,
    connectTimeout: connectTimeoutMs,
  };
}

/** The UI page of one run, when the UI's address is known. */
export function runUrl(settings: Pick<TemporalConnectionSettings, 'uiUrl' | 'namespace'>, workflowId: string): string | undefined {
  return settings.uiUrl ? `${settings.uiUrl}/namespaces/${encodeURIComponent(settings.namespace)}/workflows/${encodeURIComponent(workflowId)}` : undefined;
}

function portOf(vars: Record<string, string>, name: string, fallback: number): number {
  const text = vars[name];
  if (text === undefined) return fallback;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new TemporalConfigError(`${name}=${text} is not a port number`);
  return port;
}

function configFile(vars: Record<string, string>): string {
  return vars.TEMPORAL_CONFIG_FILE ?? '~/.config/temporalio/temporal.toml';
}
