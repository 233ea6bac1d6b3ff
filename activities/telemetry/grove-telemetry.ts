import { context, propagation, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { AggregationTemporalityPreference, OTLPMetricExporterOptions } from '@opentelemetry/exporter-metrics-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type Sampler, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { requireEngine } from '../../runtime/optional-engine';
import { version } from '../../runtime/version';
import { secretRedactor } from '../secrets/secret-redactor';
import { groveInstruments, type GroveInstruments } from './genai-metrics';
import { genAiSteps } from './genai-steps';
import type { MetricsSettings, OtlpSettings, TelemetrySettings, TracesSettings } from './otel-settings';
import { RedactingSpanProcessor } from './redacting-span-processor';
import type { StepTelemetry } from './step-telemetry';

export interface GroveTelemetryOptions {
  /** The environment whose known secrets are blanked out of every exported span (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Send spans here instead of to the OTLP endpoint (benchmarks, tests of the wiring). */
  spanExporter?: SpanExporter;
  /** Send metrics here instead of to the OTLP endpoint. */
  metricExporter?: PushMetricExporter;
}

/**
 * One process's OpenTelemetry pipeline for grove: a tracer provider and a meter provider of its
 * own (grove never replaces a tracer or meter provider an application registered), exporting by
 * OTLP over HTTP as `TelemetrySettings` say, with the resource `service.name` (default `grove`),
 * `service.version` and `OTEL_RESOURCE_ATTRIBUTES`. Spans are batched; every span passes a
 * redactor that blanks known secrets (the environment's, the OTLP headers') out of its
 * attributes, events and status before it leaves the process.
 *
 * Context propagation needs a context manager and a propagator registered with the OpenTelemetry
 * API: grove registers `AsyncLocalStorageContextManager` and W3C Trace Context when the
 * application has not registered its own.
 *
 * Usually made for you (`groveTelemetry()` reads the environment); make one to choose the
 * exporters yourself.
 *
 * @example
 * const telemetry = new GroveTelemetry(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318' })!);
 * const worker = await Worker.create({ ..., plugins: [new GrovePlugin({ telemetry })] });
 */
export class GroveTelemetry {
  readonly resource: Resource;
  /** grove's tracer; undefined when traces are off. */
  readonly tracer?: Tracer;
  /** Where spans go (workflow spans arrive here through the worker's sink). */
  readonly spanProcessor?: SpanProcessor;
  readonly instruments?: GroveInstruments;
  /** What the activities report their model calls, tool runs and evaluations to. */
  readonly steps: StepTelemetry;
  private readonly tracerProvider?: BasicTracerProvider;
  private readonly meterProvider?: MeterProvider;

  constructor(
    readonly settings: TelemetrySettings,
    opts: GroveTelemetryOptions = {},
  ) {
    this.resource = Resource.default().merge(
      new Resource({ ...settings.resourceAttributes, 'service.name': settings.serviceName, 'service.version': version() }),
    );
    if (settings.traces) {
      registerPropagation();
      const exporter = opts.spanExporter ?? spanExporter(settings.traces);
      const redact = secretRedactor({ ...(opts.env ?? process.env), ...headerSecrets(settings) });
      this.spanProcessor = new RedactingSpanProcessor(new BatchSpanProcessor(exporter), redact);
      this.tracerProvider = new BasicTracerProvider({ resource: this.resource, sampler: sampler(settings.traces), spanProcessors: [this.spanProcessor] });
      this.tracer = this.tracerProvider.getTracer('grove', version());
    }
    if (settings.metrics) {
      const reader = new PeriodicExportingMetricReader({
        exporter: opts.metricExporter ?? metricExporter(settings.metrics),
        exportIntervalMillis: settings.metrics.intervalMs,
        exportTimeoutMillis: Math.min(settings.metrics.timeoutMs, settings.metrics.intervalMs),
      });
      this.meterProvider = new MeterProvider({ resource: this.resource, readers: [reader] });
      this.instruments = groveInstruments(this.meterProvider.getMeter('grove', version()));
    }
    this.steps = genAiSteps({ tracer: this.tracer, instruments: this.instruments, captureContent: settings.captureContent });
  }

  /** Exports everything recorded so far (spans and metrics); resolves once the collector answered. */
  async forceFlush(): Promise<void> {
    await Promise.all([this.tracerProvider?.forceFlush(), this.meterProvider?.forceFlush()]);
  }

  /** Exports what is left and stops exporting. */
  async shutdown(): Promise<void> {
    await Promise.all([this.tracerProvider?.shutdown(), this.meterProvider?.shutdown()]);
  }
}

/** W3C trace context over an async-local context, unless the application registered its own. */
function registerPropagation(): void {
  const manager = new AsyncLocalStorageContextManager();
  if (context.setGlobalContextManager(manager)) manager.enable();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

function sampler(traces: TracesSettings): Sampler {
  const root = (name: string): Sampler =>
    name.endsWith('always_off') ? new AlwaysOffSampler() : name.endsWith('traceidratio') ? new TraceIdRatioBasedSampler(traces.samplerRatio) : new AlwaysOnSampler();
  return traces.sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root: root(traces.sampler) }) : root(traces.sampler);
}

function exporterConfig(signal: OtlpSettings) {
  return { url: signal.url, headers: signal.headers, timeoutMillis: signal.timeoutMs, compression: signal.compression as never };
}

/**
 * The OTLP exporters are optional peer dependencies, one pair per protocol, loaded when chosen:
 * a process that exports nothing never needs them, and one that lacks them says which to add.
 */
function spanExporter(traces: TracesSettings): SpanExporter {
  const { OTLPTraceExporter } = requireEngine<typeof import('@opentelemetry/exporter-trace-otlp-proto')>(
    traces.protocol === 'http/json' ? '@opentelemetry/exporter-trace-otlp-http' : '@opentelemetry/exporter-trace-otlp-proto',
  );
  return new OTLPTraceExporter(exporterConfig(traces));
}

/** `AggregationTemporalityPreference`'s values (a type-only import: the exporter package is loaded only when chosen). */
const TEMPORALITY = { delta: 0, cumulative: 1, lowmemory: 2 } as const satisfies Record<MetricsSettings['temporality'], AggregationTemporalityPreference>;

function metricExporter(metrics: MetricsSettings): PushMetricExporter {
  const { OTLPMetricExporter } = requireEngine<typeof import('@opentelemetry/exporter-metrics-otlp-proto')>(
    metrics.protocol === 'http/json' ? '@opentelemetry/exporter-metrics-otlp-http' : '@opentelemetry/exporter-metrics-otlp-proto',
  );
  return new OTLPMetricExporter({ ...exporterConfig(metrics), temporalityPreference: TEMPORALITY[metrics.temporality] as AggregationTemporalityPreference } as OTLPMetricExporterOptions);
}

/** The OTLP headers' values (collector credentials), as secrets for the span redactor. */
function headerSecrets(settings: TelemetrySettings): Record<string, string> {
  const values = [...Object.values(settings.traces?.headers ?? {}), ...Object.values(settings.metrics?.headers ?? {})];
  return Object.fromEntries(values.map((value, i) => [`OTEL_EXPORTER_OTLP_HEADER_${i}_SECRET`, value]));
}
