import type OpenAI from 'openai';
import { createEvaluatorActivities, type EvaluatorDefinition } from './evaluators';
import { createLlmActivities } from './llm/chat';
import { createPolicyActivities, loadPolicy } from './policy/load-policy';
import type { OperatorPolicy } from '../core/policy/operator-policy';
import type { LlmConfig } from './llm/llm-config';
import { createResumeActivities } from './runs/resume-activities';
import { codeTestsEvaluator, createSandboxActivities, runCodeTool } from './sandbox';
import type { MessageStore } from './store/message-store';
import { createStoreActivities } from './store/store-activities';
import { createToolActivities, type AnyToolDefinition } from './tools';
import type { McpServers } from './mcp/mcp-servers';
import { secretRedactor } from './secrets/secret-redactor';
import type { StepTelemetry } from './telemetry/step-telemetry';

export interface GroveActivityDeps {
  llm: LlmConfig;
  store: MessageStore;
  tools?: AnyToolDefinition[];
  /** MCP servers whose tools join `tools` (named `<server>__<tool>`). */
  mcp?: McpServers;
  evaluators?: EvaluatorDefinition[];
  /** An `openai` client to use instead of one built from `llm`. */
  client?: OpenAI;
  /** The operator policy runs are held to (`grovePolicy`); `GROVE_POLICY_FILE` or the defaults when omitted. */
  policy?: OperatorPolicy;
  /** Spans and metrics for model calls, tool runs and evaluations (`GroveTelemetry.steps`); none when absent. */
  telemetry?: StepTelemetry;
}

/**
 * Every activity grove's workflows call: model calls, the store, tools and evaluators, and what a resumed run reads at its resume point. A
 * worker registers them; in-process runs call them as plain functions.
 *
 * @example
 * const activities = createGroveActivities({ llm: llmConfigFromEnv(), store, tools: [multiply] });
 */
export function createGroveActivities(deps: GroveActivityDeps) {
  // One redactor for everything stored: model answers, evaluations, tool outputs.
  const redact = secretRedactor(process.env, deps.mcp?.secrets());
  return {
    ...createLlmActivities({ config: deps.llm, store: deps.store, client: deps.client, redact, telemetry: deps.telemetry }),
    ...createStoreActivities(deps.store),
    ...createResumeActivities(),
    ...createToolActivities({
      tools: groveTools(deps.tools),
      sources: deps.mcp ? [deps.mcp] : [],
      store: deps.store,
      redact,
      telemetry: deps.telemetry,
    }),
    ...createEvaluatorActivities({ evaluators: withBuiltIns(deps.evaluators ?? [], [codeTestsEvaluator]), llm: deps.llm, store: deps.store, client: deps.client, redact, telemetry: deps.telemetry }),
    ...createPolicyActivities(deps.policy ?? loadPolicy()),
    ...createSandboxActivities(),
  };
}

/** The user's tools plus grove's built-in tools whose names they do not take: what a worker serves besides its MCP servers' tools. */
export function groveTools(own: AnyToolDefinition[] = []): AnyToolDefinition[] {
  return withBuiltIns(own, [runCodeTool]);
}

/** The user's tools (or evaluators) plus grove's built-ins whose names they do not take. */
function withBuiltIns<T extends { name: string }>(own: T[], builtIns: T[]): T[] {
  return [...own, ...builtIns.filter((b) => !own.some((o) => o.name === b.name))];
}

export type GroveActivities = ReturnType<typeof createGroveActivities>;
