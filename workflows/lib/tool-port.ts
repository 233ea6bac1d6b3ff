import { patched, proxyActivities, proxyLocalActivities, type ActivityOptions } from '@temporalio/workflow';
import type { ToolActivities } from '../../activities/tools/tool-activities';
import type { ActiveToolsInput, RunToolInput, RunToolResult, ToolSpec } from '../../core/schemas/agent-activities';
import type { LlmSettings } from '../../core/schemas/llm-settings';
import { activityOptions, fastStepOptions } from './activity-options';
import { runLedger } from './run-ledger';
import { isRegistryMismatch, registryFor, routedQueue } from './run-registry';
import { patchId } from '../patches';

/** Patch id: tools declared `fast` run as local activities (runs recorded before it replay as they ran). */
export const FAST_TOOLS = patchId('grove-fast-tools');

/**
 * The workflow's side of the tool activities, shared by the search agents and sessions: tools
 * run on `toolTaskQueue` (so they can be scaled and sandboxed apart from model calls) with a few
 * retries for infrastructure failures — a tool's own errors come back as tool messages, never as
 * failures — and every run of a tool gets a ledger key, so a run that re-executes the same
 * decisions never runs it twice. A tool declared `fast` runs as a local activity on the worker
 * holding the run (patched: `grove-fast-tools`) unless the run sends its tools to
 * `toolTaskQueue`: recorded in history the same way, without a trip through a task queue.
 *
 * A run bound to a registry (`bindRegistry`) sends every tool call to its registry's queue and
 * names the registry in the input; a fast call that lands on a worker with another registry is
 * refused there before it runs, reported once, and from then on sent to the registry's queue.
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
  let localRefused = false;
  /** Options and input for the run's registry, when it is bound to one. */
  const routed = <I extends object>(input: I, summary: string): [ActivityOptions & { summary: string }, [I]] => {
    const binding = registryFor(taskQueue);
    return [{ ...options, taskQueue: routedQueue(taskQueue), summary }, [binding ? { ...input, registry: binding.fingerprint } : input]];
  };
  return {
    describeTools: (names: string[]): Promise<ToolSpec[]> => tools.groveDescribeTools.executeWithOptions(...routed({ names }, `describe tools: ${names.join(', ')}`)),
    activeTools: (input: ActiveToolsInput, summary: string): Promise<string[]> => tools.groveActiveTools.executeWithOptions(...routed(input, summary)),
    runTool: (input: RunToolInput, summary: string, opts: { fast?: boolean } = {}): Promise<RunToolResult> => {
      const [regular, args] = routed(runLedger().keyed('groveRunTool', input, llm.reuse), summary);
      if (opts.fast && taskQueue === undefined && patched(FAST_TOOLS) && !localRefused) {
        const binding = registryFor(taskQueue);
        const attempt = local.groveRunTool.executeWithOptions({ ...localOptions, summary }, args);
        // Unbound (runs recorded before the registry patch): the same promise as always, tick for tick.
        if (!binding) return attempt;
        return attempt.catch((err: unknown) => {
          if (!isRegistryMismatch(err, binding)) throw err;
          localRefused = true;
          return tools.groveRunTool.executeWithOptions(regular, args);
        });
      }
      return tools.groveRunTool.executeWithOptions(regular, args);
    },
  };
}
