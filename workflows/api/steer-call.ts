import { condition, defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';
import type { AICall } from '../../core/airetry/ai-call';
import type { CallInterventionResult } from '../../core/airetry/call-intervention';
import { FeedbackRequestSchema, StopRequestSchema, TreeRewindRequestSchema, type FeedbackRequest, type HumanAction, type StopRequest, type TreeRewindRequest } from '../../core/schemas/steering';
import { ActionLog } from '../../core/steering/action-log';
import type { QueuedIntervention } from '../../core/steering/intervention-queue';
import { rejectUpdate, steeringUpdate } from '../lib/update-checks';

export const callRewindUpdate = defineUpdate<CallInterventionResult, [TreeRewindRequest]>('rewind');
export const callFeedbackUpdate = defineUpdate<CallInterventionResult, [FeedbackRequest]>('feedback');
export const callStopUpdate = defineUpdate<{ stopping: true }, [StopRequest]>('stop');
export const actionsQuery = defineQuery<HumanAction[]>('actions');

/**
 * Lets people steer a call while it runs, by update: `rewind` (prune what grew from a sample and
 * retry from it — or replace its answer), `feedback` (a person's failed check on a sample: the
 * call retries from it with the text), `stop` (end the airetry rounds with the best sample so
 * far). Each is validated before it is recorded (an unknown or abandoned sample, a replaced
 * prompt, a spent budget, a finished or stopped call are refused, saying why), applied between
 * airetry rounds, and logged with who and when (`actions` query). Call `finish` when the call is
 * done, so later requests are refused.
 *
 * @example
 * const out = aiGenerate(prompt);
 * exposeCall(out);
 * const steering = steerCall(out);
 * await out.run();
 * await airetry(cond, out, 'feedback');
 * steering.finish('the workflow has returned its answer');
 */
export function steerCall<T>(call: AICall<T>, opts: { changed?: () => void } = {}): { log: ActionLog; finish(reason: string): void } {
  const log = new ActionLog();
  let finished: string | undefined;
  const runnable = (what: string) => {
    if (finished) rejectUpdate(what, finished);
    if (call.stopped) rejectUpdate(what, `the call was stopped by ${call.stopped.by}`);
  };
  const liveSample = (what: string, nodeId: number) => {
    const node = call.samples.findNode(nodeId);
    if (!node) rejectUpdate(what, `there is no sample ${nodeId} (the tree has ${call.samples.size}, ids 0 to ${call.samples.nextId - 1})`);
    if (node.abandoned) rejectUpdate(what, `sample ${nodeId} is on an abandoned branch: choose a sample of the live tree (grove tree)`);
  };
  const samplesLeft = (what: string) => {
    const { calls, maxCalls } = call.config;
    if (calls >= maxCalls) rejectUpdate(what, `the call has drawn all its samples (calls ${calls}/${maxCalls}): nothing left to retry with`);
  };
  const apply = async (what: string, item: QueuedIntervention<unknown, CallInterventionResult>) => {
    await condition(() => item.outcome !== undefined);
    if (!item.outcome!.ok) rejectUpdate(what, item.outcome!.reason);
    opts.changed?.();
    return item.outcome!.value;
  };

  steeringUpdate(callRewindUpdate, TreeRewindRequestSchema, 'rewind', {
    description: 'Prune what grew from a sample and retry from it (or replace its answer).',
    check: (request) => {
      runnable('rewind');
      liveSample('rewind', request.nodeId);
      if (request.content !== undefined && request.nodeId === call.samples.rootId) {
        rejectUpdate('rewind', 'sample 0 is the prompt: only answers can be replaced (rewind it without content to sample again)');
      }
      if (request.content === undefined) samplesLeft('rewind');
    },
    run: (request) => {
      log.record({ at: Date.now(), by: request.by, action: 'rewind', target: `sample ${request.nodeId}`, detail: request.content ?? request.feedback });
      return apply('rewind', call.steering.push({ kind: 'rewind', nodeId: request.nodeId, content: request.content, feedback: request.feedback }));
    },
  });

  steeringUpdate(callFeedbackUpdate, FeedbackRequestSchema, 'feedback', {
    description: "A person's failed check on a sample (default: the active one): retry from it with the text.",
    check: (request) => {
      runnable('feedback');
      liveSample('feedback', request.nodeId ?? call.activeSampleId);
      samplesLeft('feedback');
    },
    run: (request) => {
      const nodeId = request.nodeId ?? call.activeSampleId;
      log.record({ at: Date.now(), by: request.by, action: 'feedback', target: `sample ${nodeId}`, detail: request.text });
      return apply('feedback', call.steering.push({ kind: 'feedback', nodeId, text: request.text }));
    },
  });

  steeringUpdate(callStopUpdate, StopRequestSchema, 'stop', {
    description: 'End the retries with the best sample so far.',
    check: () => runnable('stop'),
    run: async (request) => {
      call.stopped = { by: request.by, reason: request.reason };
      log.record({ at: Date.now(), by: request.by, action: 'stop', detail: request.reason });
      opts.changed?.();
      return { stopping: true as const };
    },
  });

  setHandler(actionsQuery, () => log.toJSON());
  return {
    log,
    finish(reason) {
      finished = reason;
      call.steering.refuseAll(reason);
    },
  };
}
