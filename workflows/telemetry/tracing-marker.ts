/**
 * Found in a workflow bundle that holds grove's tracing interceptors (their tracer's version):
 * a worker that exports telemetry checks a bundle it was given for it.
 */
export const WORKFLOW_TRACING_MARKER = 'grove-workflow-tracing/1';
