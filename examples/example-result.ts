import type { AICall } from '../workflows/api';
import { treeText } from '../workflows/api';

export interface ExampleResult<T = unknown> {
  output: T | undefined;
  success: boolean;
  calls: number;
  retries: number;
  activeSampleId: number;
  treeText: string;
}

/** What every example returns: the answer, the counters and the seeds' printed sample tree. */
export function exampleResult<T>(call: AICall<T>): ExampleResult<T> {
  return {
    output: call.output,
    success: call.success === true,
    calls: call.config.calls,
    retries: call.config.retries,
    activeSampleId: call.activeSampleId,
    treeText: treeText(call, true),
  };
}
