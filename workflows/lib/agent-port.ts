import { patched, proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { LlmActivities } from '../../activities/llm/chat';
import type { createStoreActivities } from '../../activities/store/store-activities';
import type { AgentOptions } from '../../core/agents/agent-options';
import type { AgentPort } from '../../core/agents/agent-port';
import { NON_RETRYABLE_LLM_FAILURES } from '../../core/failures';
import { LlmSettingsSchema } from '../../core/schemas/llm-settings';
import { failedEvaluation } from '../../core/agents/evaluation-failures';
import { NON_RETRYABLE_EVALUATOR_FAILURES } from '../../core/failures';
import { ToolFailure } from '../../core/failures';
import { modelCallOptions } from './activity-options';
import { EVALUATION_FAILURES, evaluatorPort } from './evaluator-port';
import { toolPort } from './tool-port';
import { afterResult } from './resume-point';
import { runLedger } from './run-ledger';
import { workflowTracing } from './telemetry-hook';
import type { RegistryNeeds } from './run-registry';

type StoreActivities = ReturnType<typeof createStoreActivities>;

/** Failure types no retry can fix in model, tool or evaluator activities. */
export const NON_RETRYABLE_AGENT_FAILURES = [...NON_RETRYABLE_LLM_FAILURES, ToolFailure.UnknownTool, ...NON_RETRYABLE_EVALUATOR_FAILURES];

/**
 * The agent's port inside a workflow: every model call, tool run and evaluation is an activity
 * with a one-line summary for the Temporal UI. Model calls and LLM evaluations use the run's
 * LLM settings; tools and evaluators run as `toolPort` and `evaluatorPort` run them (the ones
 * declared fast as local activities).
 */
export function workflowAgentPort(options: AgentOptions): AgentPort {
  const llm = LlmSettingsSchema.parse(options.llm ?? {});
  const llmOptions = modelCallOptions(llm, NON_RETRYABLE_AGENT_FAILURES);
  const tools = toolPort(llm, options.toolTaskQueue, NON_RETRYABLE_AGENT_FAILURES);
  const evaluatorOptions: ActivityOptions = { ...llmOptions, taskQueue: options.evaluatorTaskQueue ?? llm.taskQueue };

  const models = proxyActivities<LlmActivities>(llmOptions);
  const evaluate = evaluatorPort(evaluatorOptions, evaluatorOptions.taskQueue !== undefined);
  const store = proxyActivities<StoreActivities>({ ...llmOptions, startToCloseTimeout: 60_000 });

  return {
    describeTools: (names) => afterResult(tools.describeTools(names)),
    activeTools: (input, summary) => afterResult(tools.activeTools(input, summary)),
    chat: (input, summary) => afterResult(models.llmChat.executeWithOptions({ ...llmOptions, summary }, [runLedger().keyed('llmChat', input, llm.reuse)])),
    runTool: (input, summary, opts) => afterResult(tools.runTool(input, summary, opts)),
    // A custom evaluator's bad score or throw fails that evaluation, not the run (runs recorded before failed).
    evaluate: (input, summary) =>
      afterResult(evaluate(input, summary, llm.reuse).catch((err: unknown) => {
        const failed = failedEvaluation(err);
        if (failed && patched(EVALUATION_FAILURES)) return failed;
        throw err;
      })),
    resolvePath: (path) =>
      afterResult(store.groveResolvePath.executeWithOptions({ ...llmOptions, startToCloseTimeout: 60_000, summary: 'read the final trajectory' }, [{ path }])),
    nowMs: () => Date.now(),
    ...tracedSteps(),
  };
}

/** A span per search step when the worker traces (its bundle has the tracing interceptors); nothing otherwise. */
function tracedSteps(): Pick<AgentPort, 'startSpan'> {
  const tracing = workflowTracing();
  return tracing ? { startSpan: (name, attributes) => tracing.startSpan(name, attributes) } : {};
}

/** What an agent run names from its workers' registries, by the task queue that serves each (as `workflowAgentPort` sends them). */
export function agentRegistryNeeds(options: AgentOptions): RegistryNeeds[] {
  const llm = LlmSettingsSchema.parse(options.llm ?? {});
  const evaluator = options.evaluator.name === 'llm' ? [] : [options.evaluator.name];
  return [
    { queue: options.toolTaskQueue, tools: options.tools, evaluators: [] },
    { queue: options.evaluatorTaskQueue ?? llm.taskQueue, tools: [], evaluators: evaluator },
  ];
}

/** Whether Temporal suggests continuing as new (history near its limits). */
export function historyIsLong(): boolean {
  return workflowInfo().continueAsNewSuggested;
}
