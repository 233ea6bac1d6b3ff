import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { GroveTelemetry } from '../activities/telemetry/grove-telemetry';
import { groveTelemetry } from '../activities/telemetry/telemetry-registry';

/**
 * The client interceptors that start a run's trace: `@temporalio/interceptors-opentelemetry`'s
 * (`StartWorkflow:<type>`, `SignalWorkflow:...`, `StartWorkflowUpdate:...` spans, the trace
 * context passed to the workflow in its headers) with `grove.run.id` on the start span. Queries
 * and describes are not traced: a client that polls a run's progress would otherwise start a
 * trace per poll. None when telemetry is off — then nothing is loaded.
 *
 * @example
 * const client = new Client({ connection, interceptors: { workflow: groveClientInterceptors() } });
 * const grove = new GroveClient(client);
 */
export function groveClientInterceptors(telemetry: GroveTelemetry | undefined = groveTelemetry()): WorkflowClientInterceptor[] {
  const tracer = telemetry?.tracer;
  if (!tracer) return [];
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when telemetry is on */
  const { OpenTelemetryWorkflowClientInterceptor } = require('@temporalio/interceptors-opentelemetry/lib/client') as typeof import('@temporalio/interceptors-opentelemetry/lib/client');
  const { trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const traced = new OpenTelemetryWorkflowClientInterceptor({ tracer });
  traced.query = (input, next) => next(input);
  traced.describe = (input, next) => next(input);
  const runId: WorkflowClientInterceptor = {
    start: (input, next) => {
      trace.getActiveSpan()?.setAttribute('grove.run.id', input.options.workflowId);
      return next(input);
    },
    startWithDetails: (input, next) => {
      trace.getActiveSpan()?.setAttribute('grove.run.id', input.options.workflowId);
      return next(input);
    },
  };
  return [traced, runId];
}
