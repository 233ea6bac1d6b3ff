import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { LlmActivities } from '../../activities/llm/chat';
import type { ConversationRefs } from '../../core/hash/conversation-refs';
import type { Ref } from '../../core/hash/refs';
import { withConversation } from '../../core/hash/with-conversation';
import type { ChatActivityResult, ChatRequest, EmbedActivityInput, EmbedActivityResult } from '../../core/schemas/llm-call';
import { LlmFailure, NON_RETRYABLE_LLM_FAILURES } from '../../core/failures';
import type { LlmSettings } from '../../core/schemas/llm-settings';
import { modelCallOptions } from './activity-options';
import { afterResult } from './resume-point';
import { runLedger } from './run-ledger';

/**
 * The workflow's side of the model activities: it turns a conversation path into a reference
 * input, schedules `llmChat` with the run's timeouts and retry policy, and keeps the message
 * store bookkeeping right — including the recovery from a store miss (a worker that cannot see
 * the store), where it resends everything inline once.
 *
 * @example
 * const llm = llmPort(settings);
 * const result = await llm.chat(refs, pathRef, { model: 'gpt-4o-mini', summary: 'answer' });
 */
export function llmPort(settings: LlmSettings) {
  const options = modelCallOptions(settings, NON_RETRYABLE_LLM_FAILURES);
  const activities = proxyActivities<LlmActivities>(options);

  async function chat(refs: ConversationRefs, path: Ref, request: ChatRequest): Promise<ChatActivityResult> {
    const { summary, ...rest } = request;
    const callKey = runLedger().key('llmChat', { conversation: { path }, ...rest }, settings.reuse);
    const result = await afterResult(
      withConversation(
        refs,
        path,
        (conversation) => activities.llmChat.executeWithOptions({ ...options, summary }, [{ conversation, ...rest, callKey }]),
        isStoreMiss,
      ),
    );
    refs.markRefsStored(result.choices.map((c) => c.ref));
    return result;
  }

  function embed(input: EmbedActivityInput, summary?: string): Promise<EmbedActivityResult> {
    return afterResult(activities.llmEmbed.executeWithOptions({ ...options, summary }, [runLedger().keyed('llmEmbed', input, settings.reuse)]));
  }

  return { chat, embed };
}

export type LlmPort = ReturnType<typeof llmPort>;

function isStoreMiss(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === LlmFailure.StoreMiss;
}
