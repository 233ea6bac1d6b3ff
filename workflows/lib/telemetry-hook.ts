import type { Sinks } from '@temporalio/workflow';
import type { SpanAttributes, TraceSpan } from '../../core/trace-span';
import type { RunEnded } from '../../activities/telemetry/genai-metrics';

/**
 * How grove's workflow code reaches tracing, when the worker traces. The tracing interceptors
 * (`workflows/telemetry/tracing-interceptors.ts`) install it; they are bundled only into the
 * workflow bundle of a worker that traces, so in any other bundle `workflowTracing()` is
 * `undefined` and the workflows run exactly the code they ran before — no span, no sink call,
 * no header.
 */
export interface WorkflowTracing {
  /** A span under the current one (a search node's expansion, a reflection). */
  startSpan(name: string, attributes: SpanAttributes): TraceSpan;
  /** What the run reported about itself (`reportRun`): its kind, status and counters, for its span. */
  runReported(update: { kind?: string; status?: string; calls?: number; tokens?: number; bestScore?: number }): void;
}

/** The worker-side sink the tracing interceptors call: workflows do no I/O themselves. */
export interface GroveTelemetrySinks extends Sinks {
  groveTelemetry: { runEnded(run: RunEnded): void };
}

let installed: WorkflowTracing | undefined;

/** The run's tracing, or undefined when this bundle has no tracing interceptors. */
export function workflowTracing(): WorkflowTracing | undefined {
  return installed;
}

/** Called once by the tracing interceptors' module when the bundle loads. */
export function installWorkflowTracing(tracing: WorkflowTracing): void {
  installed = tracing;
}
