import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { TemporalConnectionSettings } from './connection-options';

export const LOCAL_TEMPORAL: TemporalConnectionSettings = { address: '127.0.0.1:7233', namespace: 'default' };

/**
 * A Temporal client for the given settings (a local dev server, a cluster or Temporal Cloud).
 *
 * @example
 * const client = await connectClient(connectionSettingsFromEnv() ?? LOCAL_TEMPORAL);
 */
export async function connectClient(settings: TemporalConnectionSettings): Promise<Client> {
  const connection = await Connection.connect({ address: settings.address, tls: settings.tls, apiKey: settings.apiKey });
  return new Client({ connection, namespace: settings.namespace });
}

/** The native connection a worker polls with, for the same settings. */
export function connectWorker(settings: TemporalConnectionSettings): Promise<NativeConnection> {
  return NativeConnection.connect({ address: settings.address, tls: settings.tls, apiKey: settings.apiKey });
}
