import type OpenAI from 'openai';
import { createEvaluatorActivities, type EvaluatorDefinition } from './evaluators';
import { createLlmActivities } from './llm/chat';
import { createPolicyActivities, loadPolicy } from './policy/load-policy';
import { messageLimits, type OperatorPolicy } from '../core/policy/operator-policy';
import type { LlmConfig } from './llm/llm-config';
import { createResumeActivities } from './runs/resume-activities';
import { codeTestsEvaluator, createSandboxActivities, runCodeTool } from './sandbox';
import type { MessageStore } from './store/message-store';
import { createStoreActivities } from './store/store-activities';
import { createToolActivities, type AnyToolDefinition } from './tools';
import type { McpServers } from './mcp/mcp-servers';
import { secretRedactor } from './secrets/secret-redactor';
import type { StepTelemetry } from './telemetry/step-telemetry';
import { createRegistryActivities, guardRegistry } from './registry/registry-activities';
import { describeWorkerRegistry, FleetState } from './registry/worker-registry';

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
  /** The worker's place in its fleet (its registry, whether it routes); from `groveFleetState(deps)` when omitted. */
  fleet?: FleetState;
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
  const { tools, evaluators } = servedBy(deps);
  const fleet = deps.fleet ?? groveFleetState(deps);
  const policy = deps.policy ?? loadPolicy();
  const limits = messageLimits(policy);
  const { telemetry } = deps;
  return {
    ...createLlmActivities({ config: deps.llm, store: deps.store, client: deps.client, redact, telemetry, limits }),
    ...createStoreActivities(deps.store),
    ...createResumeActivities(),
    ...guardRegistry(fleet, createToolActivities({ tools, sources: deps.mcp ? [deps.mcp] : [], store: deps.store, redact, telemetry, limits })),
    ...guardRegistry(fleet, createEvaluatorActivities({ evaluators, llm: deps.llm, store: deps.store, client: deps.client, redact, telemetry })),
    ...createRegistryActivities(fleet),
    ...createPolicyActivities(policy),
    ...createSandboxActivities(),
  };
}

/**
 * The registry of a worker that serves `deps` (see `describeWorkerRegistry`): what
 * `createGroveActivities` registers, grove's built-ins included.
 *
 * @example
 * groveFleetState({ tools: [multiply] }).registry.fingerprint // '3fa9c2d1e0b4a7f2'
 * await groveFleetState({ tools: [multiply], mcp }).settle() // with the MCP servers' tools
 */
export function groveFleetState(deps: Pick<GroveActivityDeps, 'tools' | 'evaluators' | 'mcp'>): FleetState {
  const { tools, evaluators } = servedBy(deps);
  const { mcp } = deps;
  // A worker's MCP tools are part of its registry: known once its servers list them.
  return new FleetState(describeWorkerRegistry(tools, evaluators), mcp && (async () => describeWorkerRegistry([...tools, ...(await mcp.tools())], evaluators)));
}

/** The user's tools plus grove's built-in tools whose names they do not take: what a worker serves besides its MCP servers' tools. */
export function groveTools(own: AnyToolDefinition[] = []): AnyToolDefinition[] {
  return withBuiltIns(own, [runCodeTool]);
}

/** Every tool and evaluator a worker serves besides its MCP servers' tools: the user's, then grove's built-ins whose names they do not take. */
function servedBy(deps: Pick<GroveActivityDeps, 'tools' | 'evaluators'>) {
  return { tools: withBuiltIns(deps.tools ?? [], [runCodeTool]), evaluators: withBuiltIns(deps.evaluators ?? [], [codeTestsEvaluator]) };
}

/** The user's tools (or evaluators) plus grove's built-ins whose names they do not take. */
function withBuiltIns<T extends { name: string }>(own: T[], builtIns: T[]): T[] {
  return [...own, ...builtIns.filter((b) => !own.some((o) => o.name === b.name))];
}

export type GroveActivities = ReturnType<typeof createGroveActivities>;
