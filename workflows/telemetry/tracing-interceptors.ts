/**
 * grove's workflow tracing: the workflow interceptors of a worker that traces (bundled only into
 * its workflow bundle; see `groveWorkflowBundle({ tracing: true })`). Spans are made inside the
 * workflow and leave it through the worker's `exporter` sink, as `@temporalio/interceptors-opentelemetry`
 * does — its workflow context manager, span exporter, header and span names are used here — with
 * two differences that keep replay deterministic whether tracing is on or off:
 *
 * - span and trace ids come from the named random stream `grove-otel`, never from `Math.random`,
 *   so tracing draws nothing from the workflow's own random sequence;
 * - each interceptor hands back the SDK's own promise, ending its span from a reaction on it,
 *   so workflow code resumes in the same microtask as without tracing (an `async` wrapper would
 *   add ticks, which can reorder commands made in one activation).
 *
 * Queries and update validators are not traced: they are not in history, and a span would
 * advance the id stream differently on replay.
 */
import '@temporalio/interceptors-opentelemetry/lib/workflow/runtime';
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOnSampler, BasicTracerProvider, ParentBasedSampler, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defaultPayloadConverter, type Headers } from '@temporalio/common';
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { ContextManager } from '@temporalio/interceptors-opentelemetry/lib/workflow/context-manager';
import { SpanName, SPAN_DELIMITER } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import { SpanExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter';
import {
  ContinueAsNew,
  getRandomStream,
  isCancellation,
  proxySinks,
  workflowInfo,
  type ActivityInput,
  type ContinueAsNewInput,
  type LocalActivityInput,
  type Next,
  type SignalInput,
  type SignalWorkflowInput,
  type StartChildWorkflowExecutionInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import type { SpanAttributes, TraceSpan } from '../../core/trace-span';
import { GroveKind } from '../search-attributes';
import { installWorkflowTracing, type GroveTelemetrySinks } from '../lib/telemetry-hook';
import { WORKFLOW_TRACING_MARKER } from './tracing-marker';


const propagator = new W3CTraceContextPropagator();
let tracer: Tracer | undefined;
let contexts: ContextManager | undefined;

/** The run span and what the run said about itself, per running workflow. */
const runs = new Map<string, { span: Span; kind?: string; status?: string }>();

function tracing(): { tracer: Tracer; contexts: ContextManager } {
  contexts ??= new ContextManager();
  tracer ??= new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    idGenerator: { generateTraceId: () => randomHex(4), generateSpanId: () => randomHex(2) },
    spanProcessors: [new SimpleSpanProcessor(new SpanExporter())],
  }).getTracer('grove-workflow', WORKFLOW_TRACING_MARKER);
  return { tracer, contexts };
}

/** `words` × 32 random bits as hex, from the workflow's `grove-otel` stream (replay-stable, apart from `Math.random`). */
function randomHex(words: number): string {
  const stream = getRandomStream('grove-otel');
  let hex = '';
  for (let i = 0; i < words; i++) hex += Math.floor(stream.random() * 0x100000000).toString(16).padStart(8, '0');
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

function withTrace(headers: Headers, context: Context): Headers {
  const carrier: Record<string, string> = {};
  propagator.inject(context, carrier, defaultTextMapSetter);
  return { ...headers, [TRACE_HEADER]: defaultPayloadConverter.toPayload(carrier) };
}

function parentOf(headers: Headers): Context {
  const payload = headers[TRACE_HEADER];
  if (payload === undefined) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, defaultPayloadConverter.fromPayload<Record<string, string>>(payload), defaultTextMapGetter);
}

/** Ends `span` as the step settled; a search that stopped on its budget is not a failure. */
function endSpan(span: Span, error?: unknown): void {
  if (error === undefined || error instanceof ContinueAsNew || (error as Error)?.name === 'StopSearch') span.setStatus({ code: SpanStatusCode.OK });
  else {
    span.setAttribute('error.type', (error as { type?: string })?.type ?? (error as Error)?.name ?? '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 300) });
  }
  span.end();
}

/**
 * Runs `next` with a new span as the current one, and ends the span when `next`'s promise
 * settles — returning that very promise.
 */
function inSpan<T>(name: string, parent: Context, attributes: SpanAttributes, next: (context: Context, span: Span) => Promise<T>): Promise<T> {
  const { tracer, contexts } = tracing();
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
  const context = trace.setSpan(parent, span);
  let result: Promise<T>;
  try {
    result = contexts.with(context, () => next(context, span));
  } catch (err) {
    endSpan(span, err);
    throw err;
  }
  result.then(
    () => endSpan(span),
    (err: unknown) => endSpan(span, err),
  );
  return result;
}

class Inbound implements WorkflowInboundCallsInterceptor {
  execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    // The run's ids (grove.run.id...) are added to every workflow span by the worker's exporter sink.
    const info = workflowInfo();
    return inSpan(`${SpanName.WORKFLOW_EXECUTE}${SPAN_DELIMITER}${info.workflowType}`, parentOf(input.headers), {}, (_context, span) => {
      const run = { span };
      runs.set(info.runId, run);
      const result = next(input);
      result.then(
        (value) => runEnded(run, input.args[0], value),
        (err: unknown) => runEnded(run, input.args[0], undefined, err),
      );
      return result;
    });
  }

  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>): Promise<void> {
    return inSpan(`${SpanName.WORKFLOW_HANDLE_SIGNAL}${SPAN_DELIMITER}${input.signalName}`, parentOf(input.headers), {}, () => next(input));
  }

  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    return inSpan(`${SpanName.WORKFLOW_HANDLE_UPDATE}${SPAN_DELIMITER}${input.name}`, parentOf(input.headers), { temporalUpdateId: input.updateId }, () => next(input));
  }
}

class Outbound implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    const current = tracing().contexts.active();
    return inSpan(`${SpanName.ACTIVITY_START}${SPAN_DELIMITER}${input.activityType}`, current, {}, (context) => next({ ...input, headers: withTrace(input.headers, context) }));
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>): Promise<unknown> {
    const current = tracing().contexts.active();
    return inSpan(`${SpanName.ACTIVITY_START}${SPAN_DELIMITER}${input.activityType}`, current, {}, (context) => next({ ...input, headers: withTrace(input.headers, context) }));
  }

  startChildWorkflowExecution(input: StartChildWorkflowExecutionInput, next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>) {
    return next({ ...input, headers: withTrace(input.headers, tracing().contexts.active()) });
  }

  continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>): Promise<never> {
    return next({ ...input, headers: withTrace(input.headers, tracing().contexts.active()) });
  }

  signalWorkflow(input: SignalWorkflowInput, next: Next<WorkflowOutboundCallsInterceptor, 'signalWorkflow'>): Promise<void> {
    return next({ ...input, headers: withTrace(input.headers, tracing().contexts.active()) });
  }
}

/**
 * The run's end on its span — status, verdict, cost — and, unless it continues as new, in the
 * worker's `grove.runs` (and `grove.run.cost` when the run was priced), through the sink.
 */
function runEnded(run: { span: Span; kind?: string; status?: string }, input: unknown, result: unknown, error?: unknown): void {
  const info = workflowInfo();
  runs.delete(info.runId);
  if (error instanceof ContinueAsNew) {
    run.span.setAttribute('grove.run.continued_as_new', true);
    return;
  }
  const status = run.status ?? (error === undefined ? 'succeeded' : isCancellation(error) ? 'cancelled' : 'failed');
  const kind = run.kind ?? info.typedSearchAttributes.get(GroveKind) ?? info.workflowType;
  const priced = (input as { pricing?: unknown } | null)?.pricing !== undefined;
  const costUsd = priced ? (result as { costUsd?: unknown } | undefined)?.costUsd : undefined;
  const verdict = (result as { verdict?: { by?: unknown; verified?: unknown; model?: unknown } } | undefined)?.verdict;
  run.span.setAttributes({
    'grove.run.kind': kind,
    'grove.run.status': status,
    ...(typeof costUsd === 'number' ? { 'grove.run.cost_usd': costUsd } : {}),
    ...(typeof verdict?.by === 'string' ? { 'grove.verdict.by': verdict.by } : {}),
    ...(typeof verdict?.verified === 'boolean' ? { 'grove.verdict.verified': verdict.verified } : {}),
    ...(typeof verdict?.model === 'string' ? { 'grove.verdict.model': verdict.model } : {}),
  });
  proxySinks<GroveTelemetrySinks>().groveTelemetry.runEnded({ kind, status, ...(typeof costUsd === 'number' ? { costUsd } : {}) });
}

installWorkflowTracing({
  startSpan(name: string, attributes: SpanAttributes): TraceSpan {
    const { tracer, contexts } = tracing();
    const parent = contexts.active();
    const span = tracer.startSpan(name, { attributes }, parent);
    const context = trace.setSpan(parent, span);
    return {
      within: (step) => contexts.with(context, step),
      end(attributes, error) {
        if (attributes) span.setAttributes(attributes);
        endSpan(span, error);
      },
    };
  },
  runReported(update) {
    const run = runs.get(workflowInfo().runId);
    if (!run) return;
    if (update.kind !== undefined) run.kind = update.kind;
    if (update.status !== undefined && update.status !== 'running') run.status = update.status;
    const counters = { 'grove.run.calls': update.calls, 'grove.run.tokens': update.tokens, 'grove.run.best_score': update.bestScore };
    for (const [key, value] of Object.entries(counters)) if (value !== undefined && Number.isFinite(value)) run.span.setAttribute(key, value);
  },
});

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [new Inbound()],
  outbound: [new Outbound()],
  internals: [
    {
      // A run evicted from the worker's cache (or done) leaves nothing behind.
      dispose(input, next) {
        runs.delete(workflowInfo().runId);
        next(input);
      },
    },
  ],
});
