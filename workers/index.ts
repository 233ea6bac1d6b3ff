/**
 * grove's worker side: the Temporal plugin for a worker of your own, a ready worker, grove's
 * workflow bundle, and the worker process `grove worker` runs.
 *
 * @example
 * import { GrovePlugin } from 'grove-agents/worker';
 * await Worker.create({ connection, taskQueue: 'grove', plugins: [new GrovePlugin({ tools })] });
 */
export { GrovePlugin, resolveStore, type GrovePluginOptions } from './grove-plugin';
export { createGroveWorker, type GroveWorkerOptions } from './create-worker';
export {
  bundleGroveWorkflows,
  groveWorkflowBundle,
  writeWorkflowBundle,
  PREBUILT_BUNDLE,
  PREBUILT_TRACED_BUNDLE,
  TRACING_INTERCEPTORS,
  WORKFLOWS_PATH,
  type GroveBundleOptions,
} from './workflow-bundle';
export { workerTelemetry, type WorkerTelemetry } from './worker-telemetry';
export { createGroveTelemetry, groveTelemetry, flushGroveTelemetry, shutdownGroveTelemetry } from '../activities/telemetry/telemetry-registry';
export { telemetrySettingsFromEnv, TelemetryConfigError, type TelemetrySettings } from '../activities/telemetry/otel-settings';
export type { GroveTelemetry, GroveTelemetryOptions } from '../activities/telemetry/grove-telemetry';
export { loadWorkerModule, workerMcpServers, type WorkerModule } from './worker-module';
export { McpServers, type McpServersInput } from '../activities/mcp';
export { runWorkerProcess } from './main';
