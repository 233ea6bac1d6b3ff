import { deltaBetween, materialize, type ConversationDelta } from '../conversation/delta';
import { addFeedback } from '../feedback';
import type { AICall } from './ai-call';

/**
 * What a retry from `sampleId` sends on top of that sample's conversation: a new user message
 * with the sample's feedback, or (in place) the prompt's last user message extended with all
 * feedback from the root down, replacing the answers after it.
 *
 * @example
 * await runCall(call, { send: feedbackDelta(call, sampleId) });
 */
export function feedbackDelta<T>(call: AICall<T>, sampleId: number): ConversationDelta {
  const { feedbackInplace: inplace, feedbackTemplate: template } = call.config;
  const current = materialize(call.samples, sampleId);
  const base = inplace ? materialize(call.samples, call.samples.rootId) : current;
  return deltaBetween(current, addFeedback(base, call.samples, sampleId, { inplace, template }));
}
