import { ApplicationFailure } from '@temporalio/common';
import type OpenAI from 'openai';
import { addUsage } from '../../core/budget';
import type { EvaluateResult } from '../../core/schemas/agent-activities';
import type { Message } from '../../core/schemas/messages';
import { LlmFailure } from '../llm/classify-error';
import { usageOf } from '../llm/chat';
import { compatCompletion } from '../llm/compat-completion';
import { sharedCompat, type ProviderCompat } from '../llm/provider-compat';
import type { LlmConfig } from '../llm/llm-config';
import { EvaluatorFailure } from '../../core/failures';
import { combineEvaluations, parseEvaluation } from './parse-evaluation';
import { renderTrajectory, type RenderOptions } from './render-trajectory';
import type { StepTelemetry } from '../telemetry/step-telemetry';

export { parseEvaluation, combineEvaluations, DEFAULT_SAMPLE_SCORE } from './parse-evaluation';
export type { ParsedEvaluation, CombinedEvaluation } from './parse-evaluation';
export { renderTrajectory } from './render-trajectory';
export type { RenderOptions } from './render-trajectory';

/**
 * The LLM evaluator's system prompt (Saplings' gist, seed 004 / reference A2): grade the whole
 * tool-use trajectory, finished or not, counting errors, on a 0-10 scale. Reasoning comes
 * before the score so a model thinks before it commits to a number.
 */
export const DEFAULT_EVALUATOR_PROMPT = [
  "You grade the tool-use trajectory of an AI agent: the user's request, each tool call the agent made, each tool result, and the agent's replies.",
  "Decide whether the trajectory satisfies the user's request or, if it is not finished, whether it is on track to satisfy it.",
  'Take errors into account: wrong or invalid tool calls, tool results that report errors, and results the agent misread or ignored.',
  'Reply with JSON only: {"reasoning": "<a few short sentences>", "score": <number from 0 to 10>}.',
  '10 means the request is fully solved; 0 means the trajectory is wrong or hopeless; in between, how far it has got and how likely it is to succeed from here.',
].join('\n');

/**
 * Strict json_schema for `{reasoning, score}`. The 0-10 range is stated in the description, not
 * as `minimum`/`maximum`: not every OpenAI-compatible server's constrained decoding supports
 * those keywords, and an out-of-range score makes the sample malformed anyway (see `parseEvaluation`).
 */
export const EVALUATION_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'trajectory_evaluation',
    strict: true,
    schema: {
      type: 'object',
      properties: {
        reasoning: { type: 'string', description: 'Why the trajectory gets this score, in a few short sentences.' },
        score: { type: 'number', description: 'From 0 to 10; 10 means the request is fully solved.' },
      },
      required: ['reasoning', 'score'],
      additionalProperties: false,
    },
  },
} as const;

/** What the LLM evaluator accepts (the `llm` branch of `EvaluatorSpec`). */
export interface LlmEvaluatorSpec {
  name: 'llm';
  model?: string;
  nSamples?: number;
  prompt?: string;
  temperature?: number;
}

export interface LlmEvaluatorOptions {
  client: OpenAI;
  config: LlmConfig;
  /** Aborts the HTTP request (the activity's cancellation signal). */
  signal?: AbortSignal;
  /** Sent as `x-grove-call-key`, so a server can tell a retry of this call from a new one. */
  callKey?: string;
  render?: RenderOptions;
  /** What servers were found to refuse (default: the worker's shared memory). */
  compat?: ProviderCompat;
  /** Traces each model call of the evaluation, when the worker exports telemetry. */
  telemetry?: StepTelemetry;
}

export const EVALUATOR_DEFAULTS = { temperature: 0.7, nSamples: 1, maxTokens: 1024 } as const;

/** Added to the evaluator's prompt when an answer was cut off before its score. */
export const CUT_OFF_INSTRUCTION = 'Your previous answer was cut off before the score. Keep the reasoning under 40 words this time.';

/**
 * grove's default evaluator (Saplings' `Evaluator`, improved): ONE chat call with
 * `n = nSamples`, the prompt as system message and the trajectory rendered as text
 * (`renderTrajectory`), a strict json_schema for `{reasoning, score}`, temperature 0.7 and
 * max_tokens 1024 (a sample cut off before its score is asked again once, told to be brief). Each sample
 * is read by `parseEvaluation` (malformed answers are repaired or default to 5/10, never 1.0;
 * when no sample has a usable score the evaluation is `failed`); the score is the mean
 * (`combineEvaluations`). Model
 * errors are classified like chat calls (`classifyLlmError`): 401/404 fail fast, 429/5xx retry.
 * `n` is sent only when above 1 (1 is every provider's default, and a few servers reject the
 * field); a provider that ignores `n` and returns fewer choices is scored on the choices it returned.
 *
 * @example
 * const result = await evaluateWithLlm(trajectory, { name: 'llm', nSamples: 3 }, { client, config });
 * result.score // e.g. 0.8 (mean of the 3 samples), result.samples // [0.8, 0.8, 0.8]
 */
export async function evaluateWithLlm(trajectory: Message[], spec: LlmEvaluatorSpec, opts: LlmEvaluatorOptions): Promise<EvaluateResult> {
  checkSpec(spec);
  const model = spec.model ?? opts.config.defaultModel;
  const n = spec.nSamples ?? EVALUATOR_DEFAULTS.nSamples;
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: [
      { role: 'system', content: spec.prompt ?? DEFAULT_EVALUATOR_PROMPT },
      { role: 'user', content: `Trajectory to grade:\n\n${renderTrajectory(trajectory, opts.render)}` },
    ],
    response_format: EVALUATION_RESPONSE_FORMAT as unknown as OpenAI.ResponseFormatJSONSchema,
    temperature: spec.temperature ?? EVALUATOR_DEFAULTS.temperature,
    max_tokens: EVALUATOR_DEFAULTS.maxTokens,
    ...(n === 1 ? {} : { n }),
  };
  // A 404's hint names the setting the user gave: the evaluator's own model, else the run's.
  const callOptions = { baseURL: opts.config.baseURL, signal: opts.signal, callKey: opts.callKey, telemetry: opts.telemetry, modelSetting: spec.model !== undefined ? "the run's `evaluator.model`" : undefined };
  const { response } = await compatCompletion(opts.client, opts.compat ?? sharedCompat(), body, callOptions);
  if (!response || !Array.isArray(response.choices) || response.choices.length === 0) {
    throw ApplicationFailure.retryable(
      `the model endpoint at ${opts.config.baseURL} (model ${model}) sent an evaluation without choices`,
      LlmFailure.MalformedResponse,
    );
  }
  const choices = [...response.choices].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const parsed = choices.map((c) => parseEvaluation(sampleText(c.message)));
  // A sample cut off by max_tokens before its score: asked again once, told to be brief (a
  // verbose model must not turn into a silent 5/10; more room would only buy a rambling model
  // more rambling, so the budget stays).
  const cut = parsed.flatMap((p, i) => (!p.usable && choices[i]!.finish_reason === 'length' ? [i] : []));
  let usage = usageOf(response.usage);
  if (cut.length > 0) {
    const [system, ...rest] = body.messages;
    const retry = {
      ...body,
      messages: [{ role: 'system' as const, content: `${String(system!.content)}\n${CUT_OFF_INSTRUCTION}` }, ...rest],
      ...(cut.length === 1 ? { n: undefined } : { n: cut.length }),
    };
    const again = await compatCompletion(opts.client, opts.compat ?? sharedCompat(), retry, callOptions);
    const redo = [...(again.response?.choices ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    cut.forEach((at, k) => {
      if (redo[k]) parsed[at] = parseEvaluation(sampleText(redo[k].message));
    });
    usage = addUsage(usage, usageOf(again.response?.usage));
  }
  return { ...combineEvaluations(parsed), usage, model: response.model || model };
}

/** The sample's text: its content, else the arguments of a tool call (a provider that forces one), else a refusal. */
function sampleText(message: OpenAI.ChatCompletionMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string' && message.content.trim() !== '') return message.content;
  const call = message.tool_calls?.find((c) => c.type === 'function');
  if (call && call.type === 'function') return call.function.arguments;
  return message.refusal ?? '';
}

function checkSpec(spec: LlmEvaluatorSpec): void {
  const bad = (what: string) => ApplicationFailure.nonRetryable(`invalid llm evaluator: ${what}`, EvaluatorFailure.InvalidSpec);
  if (spec.nSamples !== undefined && (!Number.isInteger(spec.nSamples) || spec.nSamples < 1 || spec.nSamples > 128)) {
    throw bad(`nSamples must be an integer from 1 to 128, got ${spec.nSamples}`);
  }
  if (spec.temperature !== undefined && !(Number.isFinite(spec.temperature) && spec.temperature >= 0 && spec.temperature <= 2)) {
    throw bad(`temperature must be a number from 0 to 2, got ${spec.temperature}`);
  }
  if (spec.model !== undefined && (typeof spec.model !== 'string' || spec.model === '')) throw bad('model must be a non-empty string');
  if (spec.prompt !== undefined && (typeof spec.prompt !== 'string' || spec.prompt.trim() === '')) throw bad('prompt must be a non-empty string');
}
