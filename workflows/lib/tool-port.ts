import { patched, proxyActivities, proxyLocalActivities, type ActivityOptions } from '@temporalio/workflow';
import type { ToolActivities } from '../../activities/tools/tool-activities';
import type { ActiveToolsInput, RunToolInput, RunToolResult, ToolSpec } from '../../core/schemas/agent-activities';
import type { LlmSettings } from '../../core/schemas/llm-settings';
import { activityOptions, fastStepOptions } from './activity-options';
import { runLedger } from './run-ledger';

/** Patch id: tools declared `fast` run as local activities (runs recorded before it replay as they ran). */
export const FAST_TOOLS = 'grove-fast-tools';

/**
 * The workflow's side of the tool activities, shared by the search agents and sessions: tools
 * run on `toolTaskQueue` (so they can be scaled and sandboxed apart from model calls) with a few
 * retries for infrastructure failures — a tool's own errors come back as tool messages, never as
 * failures — and every run of a tool gets a ledger key, so a run that re-executes the same
 * decisions never runs it twice. A tool declared `fast` runs as a local activity on the worker
 * holding the run (patched: `grove-fast-tools`) unless the run sends its tools to
 * `toolTaskQueue`: recorded in history the same way, without a trip through a task queue.
 *
 * @example
 * const tools = toolPort(llm, options.toolTaskQueue, NON_RETRYABLE_AGENT_FAILURES);
 * const specs = await tools.describeTools(['multiply']);
 */
export function toolPort(llm: LlmSettings, taskQueue: string | undefined, nonRetryable: string[]) {
  const options: ActivityOptions = {
    ...activityOptions(llm, nonRetryable, { maxAttempts: llm.maxAttempts === 0 ? 3 : Math.min(llm.maxAttempts, 3) }),
    taskQueue,
  };
  const tools = proxyActivities<ToolActivities>(options);
  const localOptions = fastStepOptions(options);
  const local = proxyLocalActivities<ToolActivities>(localOptions);
  return {
    describeTools: (names: string[]): Promise<ToolSpec[]> =>
      tools.groveDescribeTools.executeWithOptions({ ...options, summary: `describe tools: ${names.join(', ')}` }, [{ names }]),
    activeTools: (input: ActiveToolsInput, summary: string): Promise<string[]> => tools.groveActiveTools.executeWithOptions({ ...options, summary }, [input]),
    runTool: (input: RunToolInput, summary: string, opts: { fast?: boolean } = {}): Promise<RunToolResult> => {
      const keyed = runLedger().keyed('groveRunTool', input, llm.reuse);
      if (opts.fast && taskQueue === undefined && patched(FAST_TOOLS)) return local.groveRunTool.executeWithOptions({ ...localOptions, summary }, [keyed]);
      return tools.groveRunTool.executeWithOptions({ ...options, summary }, [keyed]);
    },
  };
}
