import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInterceptorsFactory, InjectedSinks, WorkerOptions } from '@temporalio/worker';
import { readFileSync } from 'node:fs';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { GroveTelemetry } from '../activities/telemetry/grove-telemetry';
import { recordRunEnded } from '../activities/telemetry/genai-metrics';
import { TRACING_INTERCEPTORS } from './workflow-bundle';
import { WORKFLOW_TRACING_MARKER } from '../workflows/telemetry/tracing-marker';
import type { GroveTelemetrySinks } from '../workflows/lib/telemetry-hook';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import { groveClientInterceptors } from '../temporal/telemetry-interceptors';

/** What a worker adds to export telemetry: interceptors, the sinks workflow spans and run ends leave by, the workflow module. */
export interface WorkerTelemetry {
  activity: ActivityInterceptorsFactory[];
  client: WorkflowClientInterceptor[];
  sinks: InjectedSinks<GroveTelemetrySinks & OpenTelemetrySinks>;
  workflowModules: string[];
}

/**
 * A worker's share of a `GroveTelemetry` pipeline. Activities run inside
 * `@temporalio/interceptors-opentelemetry`'s activity span (`RunActivity:<type>`), continuing
 * the trace the workflow put in the activity's headers; spans made in workflows arrive through
 * that package's `exporter` sink (each carrying the run's workflow id and run id), and a run's
 * end through grove's `groveTelemetry` sink, which counts it in `grove.runs` (and its cost in
 * `grove.run.cost` when it was priced). Sinks are not called when a workflow replays, so a
 * replayed run exports nothing twice.
 *
 * @example
 * const added = workerTelemetry(telemetry);
 * await Worker.create({ ..., sinks: added.sinks, interceptors: { activity: added.activity, workflowModules: added.workflowModules } });
 */
export function workerTelemetry(telemetry: GroveTelemetry): WorkerTelemetry {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when telemetry is on
  const otel = require('@temporalio/interceptors-opentelemetry/lib/worker') as typeof import('@temporalio/interceptors-opentelemetry/lib/worker');
  const { tracer, spanProcessor, instruments } = telemetry;
  const exporter = spanProcessor ? otel.makeWorkflowExporter(spanProcessor, telemetry.resource) : undefined;
  return {
    activity: tracer
      ? [(ctx) => ({ inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx) })]
      : [],
    client: groveClientInterceptors(telemetry),
    sinks: {
      // The package's sink copies what it is given onto each span: the run's ids, not all of WorkflowInfo (memo, search attributes...).
      exporter: { export: { fn: (info, spans) => exporter?.export.fn(runIds(info), spans) } },
      groveTelemetry: { runEnded: { fn: (_info, run) => instruments && recordRunEnded(instruments, run) } },
    },
    workflowModules: [TRACING_INTERCEPTORS],
  };
}

function runIds(info: WorkflowInfo): WorkflowInfo {
  return { 'grove.run.id': info.workflowId, temporalWorkflowId: info.workflowId, run_id: info.runId } as unknown as WorkflowInfo;
}

/**
 * A worker's options with the telemetry sinks added — and, when it was given a workflow bundle
 * built without the tracing interceptors, one line saying its runs export no workflow spans.
 */
export function telemetryOptions<O extends Pick<WorkerOptions, 'sinks' | 'workflowBundle'>>(options: O, observed: WorkerTelemetry | undefined): O {
  if (!observed) return options;
  if (options.workflowBundle && !bundleHasTracing(options.workflowBundle)) {
    process.stderr.write(
      `grove: telemetry is on, but this worker's workflow bundle was built without grove's tracing interceptors: its runs export activity spans only (build the bundle with bundleGroveWorkflows({ tracing: true }))\n`,
    );
  }
  return { ...options, sinks: { ...options.sinks, ...observed.sinks } };
}

function bundleHasTracing(bundle: NonNullable<WorkerOptions['workflowBundle']>): boolean {
  try {
    const code = 'code' in bundle ? bundle.code : readFileSync(bundle.codePath, 'utf8');
    return code.includes(WORKFLOW_TRACING_MARKER);
  } catch {
    return true; // the worker reports a bundle it cannot read itself
  }
}
