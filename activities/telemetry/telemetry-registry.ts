import type { GroveTelemetry } from './grove-telemetry';
import { telemetrySettingsFromEnv } from './otel-settings';

/** One pipeline per distinct configuration, shared by the workers and clients of a process. */
const pipelines = new Map<string, GroveTelemetry>();

/**
 * The process's grove telemetry for the environment's `OTEL_*` settings, or `undefined` when
 * they export nothing — then no OpenTelemetry package is loaded at all. Workers and clients of
 * one process (`grove dev` runs both) share one pipeline.
 *
 * @example
 * const telemetry = groveTelemetry(); // undefined unless OTEL_EXPORTER_OTLP_ENDPOINT (or ...) is set
 * @throws TelemetryConfigError naming a variable grove cannot use
 */
export function groveTelemetry(env: NodeJS.ProcessEnv = process.env): GroveTelemetry | undefined {
  const settings = telemetrySettingsFromEnv(env);
  if (!settings) return undefined;
  const key = JSON.stringify(settings);
  let pipeline = pipelines.get(key);
  if (!pipeline) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when telemetry is on
    const { GroveTelemetry } = require('./grove-telemetry') as typeof import('./grove-telemetry');
    pipeline = new GroveTelemetry(settings, { env });
    pipelines.set(key, pipeline);
  }
  return pipeline;
}

/**
 * Exports what every pipeline of the process still holds and closes them (a CLI command or a
 * worker process calls it before it exits). Nothing to do when telemetry is off.
 */
export async function shutdownGroveTelemetry(): Promise<void> {
  const open = [...pipelines.values()];
  pipelines.clear();
  await Promise.all(open.map((p) => p.shutdown().catch(() => {})));
}
