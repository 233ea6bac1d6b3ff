import { ApplicationFailure } from '@temporalio/common';
import type OpenAI from 'openai';
import { InvalidConfigError } from '../../core/errors';
import type { EvaluateInput, EvaluateResult } from '../../core/schemas/agent-activities';
import type { Message } from '../../core/schemas/messages';
import { activityContext, withHeartbeats } from '../activity-context';
import { callOnce, requestKey } from '../call-once';
import type { LlmConfig } from '../llm/llm-config';
import { createOpenAIClient } from '../llm/openai-client';
import type { MessageStore } from '../store/message-store';
import { resolveConversation } from '../store/resolve-conversation';
import { defineEvaluator, LLM_EVALUATOR_NAME, runEvaluator, type EvaluatorDefinition } from './define-evaluator';
import { EvaluatorFailure } from '../../core/failures';
import { secretRedactor } from '../secrets/secret-redactor';
import { evaluateWithLlm, type LlmEvaluatorSpec } from './llm-evaluator';
import type { StepTelemetry } from '../telemetry/step-telemetry';

export interface EvaluatorActivityDeps {
  /** Custom evaluators runs can name (`evaluator: { name, options }`); `llm` is always there. */
  evaluators?: EvaluatorDefinition[];
  /** Where the `llm` evaluator's calls go; its heartbeat interval paces every evaluator's heartbeats. */
  llm: LlmConfig;
  store: MessageStore;
  /** An `openai` client to use instead of one built from `llm` (tests, custom fetch). */
  client?: OpenAI;
  /** Blanks known secrets out of evaluations (reasoning, why one failed) before they are stored (default: the worker environment's). */
  redact?: (text: string) => string;
  /** An `evaluate` span per evaluation (its model calls inside), when the worker exports telemetry. */
  telemetry?: StepTelemetry;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/**
 * The evaluation activity of the search agents. `groveEvaluate` rebuilds the trajectory from
 * the message store (the input carries refs, not the conversation), runs the named evaluator
 * and heartbeats while it runs, so a worker that dies mid-evaluation is noticed quickly.
 * Custom evaluators report zero token usage. An evaluator name the worker does not know is a
 * non-retryable `GroveUnknownEvaluator` listing the ones it has: every worker of a task queue
 * should register the same evaluators.
 *
 * Heartbeats come from a timer, so an evaluator that blocks the event loop (heavy synchronous
 * work) cannot heartbeat; run such work in a child process or worker thread.
 *
 * @example
 * const activities = {
 *   ...createLlmActivities({ config, store }),
 *   ...createEvaluatorActivities({ llm: config, store, evaluators: [multiplicationChecker] }),
 * };
 * await Worker.create({ taskQueue: 'grove', activities, workflowBundle, connection });
 */
export function createEvaluatorActivities(deps: EvaluatorActivityDeps) {
  const { llm, store } = deps;
  const registry = new Map<string, EvaluatorDefinition>();
  for (const def of deps.evaluators ?? []) {
    defineEvaluator(def);
    if (registry.has(def.name)) throw new InvalidConfigError(`two evaluators are named "${def.name}": evaluator names must be unique`);
    registry.set(def.name, def);
  }
  const redact = deps.redact ?? secretRedactor();
  let client = deps.client;
  const openai = () => (client ??= createOpenAIClient(llm));

  async function groveEvaluate(input: EvaluateInput): Promise<EvaluateResult> {
    // The trajectory is resolved first: the store entries the input carries must be written even
    // when the evaluation itself was recorded before (the workflow counts them as stored).
    const trajectory = await resolveConversation(store, input.trajectory);
    // A finished evaluation is recorded under its call key: not paid for twice after a worker crash or a reset.
    const run = async () => redacted(await evaluate(input, trajectory));
    const { telemetry } = deps;
    return callOnce(store, 'groveEvaluate', input, () => (telemetry ? telemetry.evaluation(input.evaluator.name, run, (r) => ({ score: r.score, reasoning: r.reasoning })) : run()));
  }

  async function evaluate(input: EvaluateInput, trajectory: Message[]): Promise<EvaluateResult> {
    const { evaluator } = input;
    const signal = activityContext()?.cancellationSignal;
    if (evaluator.name === LLM_EVALUATOR_NAME) {
      const spec = evaluator as LlmEvaluatorSpec;
      const model = spec.model ?? llm.defaultModel;
      return withHeartbeats(llm.heartbeatIntervalMs, { evaluator: LLM_EVALUATOR_NAME, waitingFor: model }, () =>
        evaluateWithLlm(trajectory, spec, { client: openai(), config: llm, signal, callKey: llm.sendCallKey ? requestKey('groveEvaluate', input) : undefined, telemetry: deps.telemetry }),
      );
    }
    const def = registered(evaluator.name);
    const options = ('options' in evaluator && evaluator.options) || {};
    const out = await withHeartbeats(llm.heartbeatIntervalMs, { evaluator: def.name }, () => runEvaluator(def, trajectory, { options, signal }));
    return { score: out.score, reasoning: out.reasoning ?? '', usage: { ...NO_USAGE } };
  }

  /** An evaluation without known secrets in what it says (a judge or evaluator may repeat one it saw). */
  function redacted(result: EvaluateResult): EvaluateResult {
    return { ...result, reasoning: redact(result.reasoning), ...(result.failed !== undefined ? { failed: redact(result.failed) } : {}) };
  }

  function registered(name: string): EvaluatorDefinition {
    const def = registry.get(name);
    if (def) return def;
    const known = [LLM_EVALUATOR_NAME, ...registry.keys()].map((n) => `"${n}"`).join(', ');
    throw ApplicationFailure.nonRetryable(
      `unknown evaluator "${name}": this worker has ${known}; register it with createEvaluatorActivities({ evaluators: [...] }) on every worker of the task queue`,
      EvaluatorFailure.Unknown,
    );
  }

  /**
   * How the workflow should run a custom evaluator: `fast` ones (declared so) as local
   * activities. A registry read; an unknown name fails here, before the first evaluation.
   */
  async function groveDescribeEvaluator(input: { name: string }): Promise<{ name: string; fast: boolean }> {
    return { name: input.name, fast: registered(input.name).fast === true };
  }

  return { groveEvaluate, groveDescribeEvaluator };
}

export type EvaluatorActivities = ReturnType<typeof createEvaluatorActivities>;
