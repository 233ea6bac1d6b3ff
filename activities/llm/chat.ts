import OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/common';
import { fitToWindow } from '../../core/conversation/fit-window';
import { messageRef } from '../../core/hash/refs';
import type { ChatActivityInput, ChatActivityResult, ChatChoice, EmbedActivityInput, EmbedActivityResult } from '../../core/schemas/llm-call';
import type { AssistantMessage, Message, Usage } from '../../core/schemas/messages';
import { activityContext, withHeartbeats } from '../activity-context';
import { callOnce, requestKey } from '../call-once';
import { currentOwner, resolveConversation } from '../store/resolve-conversation';
import type { MessageStore } from '../store/message-store';
import { classifyLlmError, LlmFailure } from './classify-error';
import type { LlmConfig } from './llm-config';
import { createOpenAIClient } from './openai-client';
import { compatCompletion } from './compat-completion';
import { answerText } from './answer-text';
import { tokenPublisher, type StreamRedact, type TokenPublisher } from './token-publisher';
import { ProviderCompat, sharedCompat } from './provider-compat';
import { secretRedactor } from '../secrets/secret-redactor';
import { redactMessage } from '../secrets/redact-message';
import type { StepTelemetry } from '../telemetry/step-telemetry';
import { fitMessage, type MessageLimits } from '../../core/conversation/fit-message';
import { DEFAULT_POLICY, messageLimits } from '../../core/policy/operator-policy';
import { RESULT_BUDGET_BYTES } from '../../core/payload-limits';

export interface LlmActivityDeps {
  config: LlmConfig;
  store: MessageStore;
  /** An `openai` client to use instead of one built from `config` (tests, custom fetch). */
  client?: OpenAI;
  /** What servers were found to refuse (shared by a worker's activities; default: a new one, preset from GROVE_LLM_COMPAT). */
  compat?: ProviderCompat;
  /**
   * Blanks known secrets out of model answers before they are stored (default: the worker
   * environment's, `secretRedactor`). Its `safePrefix`, when it has one, lets a streaming answer
   * be shown as it grows; without it a streamed answer is shown only once done.
   */
  redact?: StreamRedact;
  /** Spans and metrics for each model call, when the worker exports telemetry. */
  telemetry?: StepTelemetry;
  /** What one answer may carry through Temporal (the operator policy's; default its defaults). */
  limits?: MessageLimits;
}

type Body = OpenAI.ChatCompletionCreateParamsNonStreaming;

/** Room kept for the answer when a call sets no max_tokens and the window is known. */
const DEFAULT_ANSWER_ROOM = 1024;

/**
 * The model-calling activities. Each takes references, rebuilds the conversation from the
 * message store, calls the endpoint once (the SDK's own retries are off: Temporal retries,
 * durably and visibly), and returns the reply inline, already stored under its ref. A reply
 * that arrived is recorded under the activity's call key before it is reported, so a retry after
 * a worker crash returns it instead of paying for the call again (`callOnce`).
 *
 * @example
 * const activities = createLlmActivities({ config: llmConfigFromEnv(), store: openStore(storeSettingsFromEnv()) });
 * await Worker.create({ taskQueue: 'grove', activities, workflowBundle, connection });
 */
export function createLlmActivities(deps: LlmActivityDeps) {
  const { config, store } = deps;
  const limits = deps.limits ?? messageLimits(DEFAULT_POLICY);
  const client = deps.client ?? createOpenAIClient(config);
  const compat = deps.compat ?? sharedCompat();
  const redact = deps.redact ?? secretRedactor();
  const { telemetry } = deps;

  async function llmChat(input: ChatActivityInput): Promise<ChatActivityResult> {
    const conversation = await resolveConversation(store, input.conversation);
    return callOnce(store, 'llmChat', input, () => complete(input, conversation, config.sendCallKey ? requestKey('llmChat', input) : undefined));
  }

  async function complete(input: ChatActivityInput, conversation: Message[], key: string | undefined): Promise<ChatActivityResult> {
    const model = input.model ?? config.defaultModel;
    const whole = input.system ? [{ role: 'system' as const, content: input.system }, ...conversation] : conversation;
    const fit = fitted(whole, input.params);
    const body = { ...(input.params ?? {}), model, messages: fit.messages.map(toWire) } as Body;
    const stream = config.stream !== false;
    // Readers see the answer grow through the store's token channel; the result is the same either way.
    const publisher = stream ? tokenPublisher(store, redact) : undefined;
    try {
      const { response, notes } = await withHeartbeats(config.heartbeatIntervalMs, { waitingFor: model }, () =>
        compatCompletion(client, compat, body, { baseURL: config.baseURL, signal: activityContext()?.cancellationSignal, callKey: key, telemetry, stream, idleTimeoutMs: config.timeoutMs, onProgress: publisher?.progress }),
      );
      if (fit.elided + fit.dropped > 0) notes.unshift(`context: ${fit.elided} old tool output(s) elided and ${fit.dropped} message(s) left out to fit ${config.contextTokens} tokens`);
      return await record(input, model, response, notes, publisher);
    } catch (err) {
      await publisher?.finish(); // the streams end as failed (a call retried streams again)
      throw err;
    }
  }

  /** The answers stored and returned (redacted, cut to what Temporal carries); the streams end with them. */
  async function record(input: ChatActivityInput, model: string, response: OpenAI.ChatCompletion, notes: string[], publisher: TokenPublisher | undefined): Promise<ChatActivityResult> {
    if (!response || !Array.isArray(response.choices) || response.choices.length === 0) {
      throw ApplicationFailure.retryable(
        `the model endpoint at ${config.baseURL} (model ${model}) sent a completion without choices`,
        LlmFailure.MalformedResponse,
      );
    }
    // Nothing a model sends can outgrow Temporal: the answers of one call share the result budget,
    // and an answer over it (or with too many tool calls) travels cut, whole in the store.
    const perAnswer = { ...limits, maxBytes: Math.min(limits.maxBytes, Math.floor(RESULT_BUDGET_BYTES / response.choices.length)) };
    const entries: Record<string, Message> = {};
    const finals = new Map<number, string>();
    const choices: ChatChoice[] = response.choices.map((choice, i) => {
      // Known secrets never reach the store, the history or a result, in any obvious encoding.
      const answer = redactMessage(fromWire(choice.message, input.runId, choice.index ?? i), redact);
      finals.set(choice.index ?? i, answerText({ content: answer.content as string | null, toolCalls: answer.tool_calls?.map((c) => c.function), refusal: answer.refusal }, true));
      const { message, whole } = fitMessage(answer, perAnswer);
      const ref = messageRef(message);
      entries[ref] = message;
      if (whole) entries[message.cut!.ref] = whole;
      return { message, ref, finishReason: choice.finish_reason ?? 'stop' };
    });
    await store.put(entries, currentOwner());
    await publisher?.finish(finals);
    // The model's name as the server reports it is the server's text too: a secret in it is blanked like one in an answer.
    return { choices, usage: usageOf(response.usage), model: redact(response.model ?? model), ...(notes.length ? { compat: notes } : {}) };
  }

  /** The conversation fitted to the model's window, less the room the answer may take. */
  function fitted(messages: Message[], params: ChatActivityInput['params']) {
    if (!config.contextTokens) return { messages, elided: 0, dropped: 0 };
    const answer = params?.max_completion_tokens ?? params?.max_tokens ?? DEFAULT_ANSWER_ROOM;
    return fitToWindow(messages, Math.max(config.contextTokens - answer, 0));
  }

  function llmEmbed(input: EmbedActivityInput): Promise<EmbedActivityResult> {
    return callOnce(store, 'llmEmbed', input, () => embed(input));
  }

  async function embed(input: EmbedActivityInput): Promise<EmbedActivityResult> {
    const model = input.model ?? config.defaultModel;
    const request = async () => {
      try {
        return await client.embeddings.create(
          { model, input: input.texts, ...(input.dimensions ? { dimensions: input.dimensions } : {}) },
          { signal: activityContext()?.cancellationSignal },
        );
      } catch (err) {
        throw classifyLlmError(err, { baseURL: config.baseURL, model });
      }
    };
    const response = await withHeartbeats(config.heartbeatIntervalMs, { waitingFor: model }, () =>
      telemetry
        ? telemetry.modelCall({ operation: 'embeddings', model, baseURL: config.baseURL }, request, (r) => ({ model: r.model, inputTokens: r.usage?.prompt_tokens }))
        : request(),
    );
    const embeddings = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding as number[]);
    const prompt = response.usage?.prompt_tokens ?? 0;
    return { embeddings, model: redact(response.model ?? model), usage: { promptTokens: prompt, completionTokens: 0, totalTokens: response.usage?.total_tokens ?? prompt } };
  }

  return { llmChat, llmEmbed };
}

export type LlmActivities = ReturnType<typeof createLlmActivities>;

/** grove's extra message fields never go over the wire. */
function toWire(message: Message): OpenAI.ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant': {
      const { runId: _r, sampleId: _s, cut: _c, ...wire } = message;
      return wire as OpenAI.ChatCompletionAssistantMessageParam;
    }
    case 'tool': {
      const { rawOutput: _raw, cut: _c, ...wire } = message;
      return wire;
    }
    default:
      return message as OpenAI.ChatCompletionMessageParam;
  }
}

function fromWire(wire: OpenAI.ChatCompletionMessage, runId: string | undefined, sampleId: number): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content: wire.content ?? null };
  const calls = (wire.tool_calls ?? []).filter((c): c is OpenAI.ChatCompletionMessageFunctionToolCall => c.type === 'function');
  if (calls.length > 0) {
    message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }));
  }
  if (wire.refusal) message.refusal = wire.refusal;
  if (runId !== undefined) {
    message.runId = runId;
    message.sampleId = sampleId;
  }
  return message;
}

/** The provider's token counts, as grove keeps them (missing counts are 0). */
export function usageOf(usage: OpenAI.CompletionUsage | undefined): Usage {
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    totalTokens: usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
  };
}
