/** An OpenTelemetry attribute value, as grove sets them: a primitive or an array of one kind. */
export type SpanAttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type SpanAttributes = Record<string, SpanAttributeValue>;

/**
 * A traced step of a run (a search node's expansion, a reflection): a span when the worker
 * traces, started by a port that can (`AgentPort.startSpan`). Core code never needs one — it
 * asks `traced` to run a step inside it, which adds no `await` to the step, so a workflow makes
 * the same decisions in the same order with tracing on or off.
 */
export interface TraceSpan {
  /** Runs `step` with this span as the parent of what it starts; returns `step`'s own result. */
  within<T>(step: () => T): T;
  /** Ends the span with these attributes, or as failed with `error`. */
  end(attributes?: SpanAttributes, error?: unknown): void;
}

/**
 * Runs `step` inside `span` when there is one; the span ends when the step settles (with the
 * attributes `after` reads from its result). Returns the step's own promise either way — no
 * wrapper, no extra tick — so code that awaits it continues exactly when it would untraced.
 *
 * @example
 * const text = await traced(port.startSpan?.('grove.reflect', { 'grove.node.id': 3 }), () => reflectOn(3));
 */
export function traced<T>(span: TraceSpan | undefined, step: () => Promise<T>, after?: (result: T) => SpanAttributes): Promise<T> {
  if (!span) return step();
  const result = span.within(step);
  result.then(
    (value) => span.end(after?.(value)),
    (err: unknown) => span.end(undefined, err),
  );
  return result;
}
