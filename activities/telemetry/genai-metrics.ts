import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';

/** What a workflow reports through its sink when a run ends (counted by the worker's `grove.runs`). */
export interface RunEnded {
  kind: string;
  status: string;
  /** Present only when the run had `pricing`. */
  costUsd?: number;
}

/** The bucket boundaries the GenAI conventions advise for `gen_ai.client.token.usage`. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
/** ... and for `gen_ai.client.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/**
 * grove's metric instruments: the GenAI conventions' client metrics (semantic conventions
 * v1.41.0) per model call, and grove's own per run — runs by status (`grove.runs`) and what a run
 * cost in US dollars by its `pricing` (`grove.run.cost`). No instrument carries a run id: one
 * series per model, kind and status, not one per run.
 */
export interface GroveInstruments {
  tokenUsage: Histogram;
  operationDuration: Histogram;
  runs: Counter;
  runCost: Counter;
}

/**
 * @example
 * const instruments = groveInstruments(meterProvider.getMeter('grove'));
 * instruments.runs.add(1, { 'grove.run.kind': 'agent:mcts', 'grove.run.status': 'succeeded' });
 */
export function groveInstruments(meter: Meter): GroveInstruments {
  return {
    tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    operationDuration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    runs: meter.createCounter('grove.runs', { description: 'grove runs that ended, by kind and status.', unit: '{run}' }),
    runCost: meter.createCounter('grove.run.cost', { description: "What ended runs cost by their pricing, in US dollars.", unit: 'USD' }),
  };
}

/** Counts an ended run, and its cost when it was priced. */
export function recordRunEnded(instruments: GroveInstruments, run: RunEnded): void {
  const attributes: Attributes = { 'grove.run.kind': run.kind, 'grove.run.status': run.status };
  instruments.runs.add(1, attributes);
  if (run.costUsd !== undefined && Number.isFinite(run.costUsd) && run.costUsd >= 0) instruments.runCost.add(run.costUsd, attributes);
}
