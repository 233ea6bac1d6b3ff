import type { AssistantMessage, Message } from '../schemas/messages';

/**
 * One model call with `n > 1` returns several assistant samples, appended to one conversation
 * and told apart by `runId`/`sampleId`. This splits them into one conversation per sample:
 * everything except that call's samples, plus the sample. As in the seeds it returns `[conv]`
 * unchanged when there are at most 1 message, the last message is not an assistant message, or
 * it has no `sampleId`. Samples match on `runId` equality (so, as in the original, a last
 * message without `runId` groups every assistant message without one).
 *
 * @example
 * splitMultiSamples([s1, s2, a1, a2]); // [[s1, s2, a1], [s1, s2, a2]] when a1, a2 share a runId
 */
export function splitMultiSamples(conv: Message[]): Message[][] {
  const last = conv[conv.length - 1];
  if (conv.length <= 1 || last.role !== 'assistant' || last.sampleId === undefined) return [conv];
  const isSample = (m: Message): m is AssistantMessage => m.role === 'assistant' && m.runId === last.runId;
  const past = conv.filter((m) => !isSample(m));
  return conv.filter(isSample).map((sample) => [...past, sample]);
}
