import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { connectionOptions, type TemporalConnectionSettings } from './connection-options';
import { groveClientInterceptors } from './telemetry-interceptors';

/** Temporal could not be reached: the message names the address and the setting that chose it. */
export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}

/**
 * A Temporal client for the given settings (a local dev server, a cluster or Temporal Cloud).
 * With OpenTelemetry configured (`OTEL_EXPORTER_OTLP_ENDPOINT`...), the runs it starts begin
 * their traces here (`groveClientInterceptors`).
 *
 * @example
 * const client = await connectClient(temporalSettings());
 */
export async function connectClient(settings: TemporalConnectionSettings): Promise<Client> {
  const connection = await reach(settings, () => Connection.connect(connectionOptions(settings)));
  return new Client({ connection, namespace: settings.namespace, interceptors: { workflow: groveClientInterceptors() } });
}

/** The native connection a worker polls with, for the same settings. */
export function connectWorker(settings: TemporalConnectionSettings): Promise<NativeConnection> {
  return reach(settings, () => NativeConnection.connect(connectionOptions(settings)));
}

async function reach<T>(settings: TemporalConnectionSettings, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (err) {
    const hint = settings.local
      ? 'start one with `grove dev`, or point TEMPORAL_ADDRESS (or a TEMPORAL_PROFILE) at your server'
      : 'check that the server runs there and the namespace, TLS and API key settings';
    throw new TemporalUnreachableError(
      `cannot connect to Temporal at ${settings.address} (${settings.source}): ${(err as Error).message.split('\n')[0]}; ${hint}`,
    );
  }
}
