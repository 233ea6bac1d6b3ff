import { defineQuery, setHandler } from '@temporalio/workflow';
import type { AICall } from '../../core/airetry/ai-call';
import type { ConversationDelta } from '../../core/conversation/delta';
import { formatCallTree } from '../../core/airetry/format-call-tree';
import type { Message, Usage } from '../../core/schemas/messages';
import type { SampleTreeJSON } from '../../core/schemas/tree';

export interface CallProgress {
  /**
   * Whether the last round of model requests came back (false: one failed, see `error`). Not
   * a verdict: whether the answer passes its checks is known when the run ends (its result).
   */
  lastRoundOk?: boolean;
  activeSampleId: number;
  /** Samples drawn (the unit of `maxCalls`, as in the seeds). */
  calls: number;
  /** Requests a model answered (a ready-made airetry or code-fixer run counts them; docs/runs.md, "The figures"). */
  modelCalls?: number;
  retries: number;
  samples: number;
  usage: Usage;
  error?: { message: string; type?: string };
  /** The call's budget, so a watcher can show what is left. */
  maxCalls: number;
  maxRetries: number;
}

export const treeQuery = defineQuery<SampleTreeJSON<ConversationDelta>>('tree');
export const treeTextQuery = defineQuery<string, [{ answers?: boolean }?]>('treeText');
export const progressQuery = defineQuery<CallProgress>('progress');
export const conversationQuery = defineQuery<Message[]>('conversation');

/**
 * Lets clients, the CLI and the Temporal UI see a call while it runs: its sample tree (as
 * data, and as the seeds' `print_samples` text with what rewinds abandoned, optionally with each sample's answer), its
 * progress counters and the active sample's conversation.
 *
 * @example
 * const out = aiGenerate(prompt);
 * exposeCall(out);  // then: grove tree <workflowId>
 */
export function exposeCall<T>(call: AICall<T>, counts: { modelCalls?: () => number } = {}): void {
  setHandler(treeQuery, () => call.samples.toJSON());
  setHandler(treeTextQuery, (opts) => treeText(call, opts?.answers ?? false, true));
  setHandler(progressQuery, () => ({ ...callProgress(call), ...(counts.modelCalls ? { modelCalls: counts.modelCalls() } : {}) }));
  setHandler(conversationQuery, () => call.conversation);
}

export function callProgress<T>(call: AICall<T>): CallProgress {
  return {
    lastRoundOk: call.success,
    activeSampleId: call.activeSampleId,
    calls: call.config.calls,
    retries: call.config.retries,
    samples: call.samples.size - 1,
    usage: call.usage,
    error: call.error,
    maxCalls: call.config.maxCalls,
    maxRetries: call.config.maxRetries,
  };
}

/**
 * The seeds' `print_samples` text of a call's samples; with `answers`, each sample's answer
 * follows its line; with `abandoned`, the samples rewinds abandoned too (the `treeText` query:
 * queries are not in history, so what they show may change).
 */
export function treeText<T>(call: AICall<T>, answers: boolean, abandoned = false): string {
  return formatCallTree(call.samples, { activeSampleId: call.activeSampleId, answers, abandoned });
}
