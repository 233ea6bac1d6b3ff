import type { GroveTelemetry, GroveTelemetryOptions } from './grove-telemetry';
import { telemetrySettingsFromEnv, type TelemetrySettings } from './otel-settings';

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
    pipeline = createGroveTelemetry(settings, { env });
    pipelines.set(key, pipeline);
  }
  return pipeline;
}

/**
 * A telemetry pipeline of your own (`GroveTelemetry`): the settings you choose, or exporters you
 * bring (`spanExporter`, `metricExporter`). The OpenTelemetry packages load on this call, not
 * when grove is imported.
 *
 * @example
 * const telemetry = createGroveTelemetry(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })!);
 * await Worker.create({ ..., plugins: [new GrovePlugin({ telemetry })] });
 */
export function createGroveTelemetry(settings: TelemetrySettings, opts: GroveTelemetryOptions = {}): GroveTelemetry {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when telemetry is on
  const { GroveTelemetry } = require('./grove-telemetry') as typeof import('./grove-telemetry');
  return new GroveTelemetry(settings, opts);
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

/** Exports what every pipeline of the process holds so far, and keeps them open (a client's `close`). */
export async function flushGroveTelemetry(): Promise<void> {
  await Promise.all([...pipelines.values()].map((p) => p.forceFlush().catch(() => {})));
}
