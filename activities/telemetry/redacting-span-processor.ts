import type { Attributes, AttributeValue, Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The last guard before spans leave the process: every string in a span's attributes, its
 * events' attributes and its status message passes `redact` (grove's known-secret redactor), so
 * a secret that slipped into an error message or a tool's output is blanked even when content
 * capture is on. Workflow spans pass here too (they reach the worker through its sink).
 *
 * @example
 * const processor = new RedactingSpanProcessor(new BatchSpanProcessor(exporter), secretRedactor());
 */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(
    private readonly inner: SpanProcessor,
    private readonly redact: (text: string) => string,
  ) {}

  onStart(span: Span, parent: Context): void {
    this.inner.onStart(span, parent);
  }

  onEnd(span: ReadableSpan): void {
    this.inner.onEnd(redactedSpan(span, this.redact));
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

function redactedSpan(span: ReadableSpan, redact: (text: string) => string): ReadableSpan {
  const context = span.spanContext();
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    parentSpanId: span.parentSpanId,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message === undefined ? span.status : { ...span.status, message: redact(span.status.message) },
    attributes: redactedAttributes(span.attributes, redact),
    links: span.links,
    events: span.events.map((e) => (e.attributes ? { ...e, attributes: redactedAttributes(e.attributes, redact) } : e)),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationLibrary: span.instrumentationLibrary,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function redactedAttributes(attributes: Attributes, redact: (text: string) => string): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = redactedValue(value, redact);
  return out;
}

function redactedValue(value: AttributeValue | undefined, redact: (text: string) => string): AttributeValue | undefined {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? redact(v) : v)) as AttributeValue;
  return value;
}
