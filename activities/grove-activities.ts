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
import { createRegistryActivities, guardRegistry } from './registry/registry-activities';
import { describeWorkerRegistry, FleetState } from './registry/worker-registry';

export interface GroveActivityDeps {
  llm: LlmConfig;
  store: MessageStore;
  tools?: AnyToolDefinition[];
  evaluators?: EvaluatorDefinition[];
  /** An `openai` client to use instead of one built from `llm`. */
  client?: OpenAI;
  /** The operator policy runs are held to (`grovePolicy`); `GROVE_POLICY_FILE` or the defaults when omitted. */
  policy?: OperatorPolicy;
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
  const { tools, evaluators } = servedBy(deps);
  const fleet = deps.fleet ?? groveFleetState(deps);
  const policy = deps.policy ?? loadPolicy();
  const limits = messageLimits(policy);
  return {
    ...createLlmActivities({ config: deps.llm, store: deps.store, client: deps.client, limits }),
    ...createStoreActivities(deps.store),
    ...createResumeActivities(),
    ...guardRegistry(fleet, createToolActivities({ tools, store: deps.store, limits })),
    ...guardRegistry(fleet, createEvaluatorActivities({ evaluators, llm: deps.llm, store: deps.store, client: deps.client })),
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
 */
export function groveFleetState(deps: Pick<GroveActivityDeps, 'tools' | 'evaluators'>): FleetState {
  const { tools, evaluators } = servedBy(deps);
  return new FleetState(describeWorkerRegistry(tools, evaluators));
}

/** Every tool and evaluator a worker serves: the user's, then grove's built-ins whose names they do not take. */
function servedBy(deps: Pick<GroveActivityDeps, 'tools' | 'evaluators'>) {
  return { tools: withBuiltIns(deps.tools ?? [], [runCodeTool]), evaluators: withBuiltIns(deps.evaluators ?? [], [codeTestsEvaluator]) };
}

/** The user's tools (or evaluators) plus grove's built-ins whose names they do not take. */
function withBuiltIns<T extends { name: string }>(own: T[], builtIns: T[]): T[] {
  return [...own, ...builtIns.filter((b) => !own.some((o) => o.name === b.name))];
}

export type GroveActivities = ReturnType<typeof createGroveActivities>;
