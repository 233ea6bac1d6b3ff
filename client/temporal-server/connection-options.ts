import { readFileSync } from 'node:fs';

/**
 * Where to find Temporal, from the environment: `TEMPORAL_ADDRESS` (host:port),
 * `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY` (Temporal Cloud API keys imply TLS), and mTLS via
 * `TEMPORAL_TLS_CERT` / `TEMPORAL_TLS_KEY` (PEM file paths, optional `TEMPORAL_TLS_CA`,
 * `TEMPORAL_TLS_SERVER_NAME`). The same settings serve the client and the worker.
 */
export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  apiKey?: string;
  tls?: { serverNameOverride?: string; serverRootCACertificate?: Buffer; clientCertPair?: { crt: Buffer; key: Buffer } } | true;
}

export function connectionSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TemporalConnectionSettings | undefined {
  const address = env.TEMPORAL_ADDRESS;
  if (!address) return undefined;
  if (!/^[^\s:/]+:\d+$/.test(address)) {
    throw new Error(`TEMPORAL_ADDRESS=${address} is not host:port (e.g. localhost:7233 or my-ns.a1b2c.tmprl.cloud:7233)`);
  }
  const settings: TemporalConnectionSettings = { address, namespace: env.TEMPORAL_NAMESPACE || 'default' };
  if (env.TEMPORAL_API_KEY) {
    settings.apiKey = env.TEMPORAL_API_KEY;
    settings.tls = true;
  }
  if (env.TEMPORAL_TLS_CERT || env.TEMPORAL_TLS_KEY) {
    if (!env.TEMPORAL_TLS_CERT || !env.TEMPORAL_TLS_KEY) {
      throw new Error('mTLS needs both TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY (PEM file paths)');
    }
    settings.tls = {
      clientCertPair: { crt: readPem(env.TEMPORAL_TLS_CERT, 'TEMPORAL_TLS_CERT'), key: readPem(env.TEMPORAL_TLS_KEY, 'TEMPORAL_TLS_KEY') },
      serverRootCACertificate: env.TEMPORAL_TLS_CA ? readPem(env.TEMPORAL_TLS_CA, 'TEMPORAL_TLS_CA') : undefined,
      serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME,
    };
  }
  return settings;
}

function readPem(path: string, name: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`${name}=${path} cannot be read: ${(err as Error).message}`);
  }
}
