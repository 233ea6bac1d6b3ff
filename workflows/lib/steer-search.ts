import { allHandlersFinished, condition, defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';
import type { SearchContext } from '../../core/agents/search-context';
import { FeedbackRequestSchema, StopRequestSchema, TreeRewindRequestSchema, type FeedbackRequest, type HumanAction, type StopRequest, type TreeRewindRequest } from '../../core/schemas/steering';
import { ActionLog } from '../../core/steering/action-log';
import { InterventionQueue } from '../../core/steering/intervention-queue';
import { rejectUpdate, steeringUpdate } from './update-checks';

type RewindResult = Awaited<ReturnType<SearchContext['rewind']>>;

export const searchRewindUpdate = defineUpdate<RewindResult, [TreeRewindRequest]>('rewind');
export const searchFeedbackUpdate = defineUpdate<{ nodeId: number }, [FeedbackRequest]>('feedback');
export const searchStopUpdate = defineUpdate<{ stopping: true }, [StopRequest]>('stop');
export const searchActionsQuery = defineQuery<HumanAction[]>('actions');

/**
 * Lets people steer a running search, by update: `rewind` (prune what grew from a node and
 * re-expand it next, optionally replacing its step or adding feedback), `feedback` (shown to every
 * later expansion at or below a node; default the prompt, i.e. the whole search), `stop` (end
 * with the best answer so far). Each is validated before it is recorded, rewinds and stops apply
 * between steps (never inside one), and every action is logged with who and when (`actions`).
 *
 * @example
 * const steering = steerSearch(() => ctx, { actions: carriedActions });
 * await runSearch(ctx, { beforeStep: async () => { await steering.apply(ctx); return 'continue'; } });
 */
export function steerSearch(current: () => SearchContext | undefined, opts: { actions?: HumanAction[]; changed?: () => void } = {}) {
  const log = new ActionLog(opts.actions);
  const rewinds = new InterventionQueue<TreeRewindRequest, RewindResult>();
  let stopRequest: { by: string; reason?: string } | undefined;
  let finished: string | undefined;

  const running = (what: string): SearchContext => {
    if (finished) rejectUpdate(what, finished);
    const ctx = current();
    if (!ctx) rejectUpdate(what, 'the search is starting: try again in a moment');
    if (ctx.state.stop) rejectUpdate(what, `the search has ended (${ctx.state.stop.kind}: ${ctx.state.stop.message})`);
    if (stopRequest) rejectUpdate(what, `the search is stopping (stopped by ${stopRequest.by})`);
    return ctx;
  };
  const feedbackNode = (ctx: SearchContext, request: { nodeId?: number }) => {
    const nodeId = request.nodeId ?? ctx.tree.rootId;
    const problem = ctx.rewindProblem({ nodeId });
    if (problem) rejectUpdate('feedback', problem.replace('rewind its parent', 'give feedback on its parent'));
    return nodeId;
  };

  steeringUpdate(searchRewindUpdate, TreeRewindRequestSchema, 'rewind', {
    description: 'Prune what grew from a node and re-expand it (optionally replacing its step, or with feedback).',
    check: (request) => {
      const problem = running('rewind').rewindProblem(request);
      if (problem) rejectUpdate('rewind', problem);
    },
    run: async (request) => {
      log.record({ at: Date.now(), by: request.by, action: 'rewind', target: `n${request.nodeId}`, detail: request.content ?? request.feedback });
      const item = rewinds.push(request);
      await condition(() => item.outcome !== undefined);
      if (!item.outcome!.ok) rejectUpdate('rewind', item.outcome!.reason);
      opts.changed?.();
      return item.outcome!.value;
    },
  });

  steeringUpdate(searchFeedbackUpdate, FeedbackRequestSchema, 'feedback', {
    description: 'Feedback on a node (default: the whole search), seen by every later expansion at or below it.',
    check: (request) => void feedbackNode(running('feedback'), request),
    run: async (request) => {
      const ctx = running('feedback');
      const nodeId = feedbackNode(ctx, request);
      const node = ctx.node(nodeId);
      ctx.tree.setFeedback(nodeId, node.feedback === '' ? request.text : `${node.feedback}\n${request.text}`);
      log.record({ at: Date.now(), by: request.by, action: 'feedback', target: `n${nodeId}`, detail: request.text });
      opts.changed?.();
      return { nodeId };
    },
  });

  steeringUpdate(searchStopUpdate, StopRequestSchema, 'stop', {
    description: 'End the search with the best answer so far.',
    check: () => void running('stop'),
    run: async (request) => {
      stopRequest = { by: request.by, reason: request.reason };
      log.record({ at: Date.now(), by: request.by, action: 'stop', detail: request.reason });
      opts.changed?.();
      return { stopping: true as const };
    },
  });

  setHandler(searchActionsQuery, () => log.toJSON());

  /** Between two steps: the queued rewinds, then a stop. */
  const apply = async (ctx: SearchContext) => {
    await rewinds.drain((request) => ctx.rewind(request));
    if (stopRequest && !ctx.state.stop) {
      ctx.state.stop = { kind: 'stopped', message: `stopped by ${stopRequest.by}${stopRequest.reason ? `: ${stopRequest.reason}` : ''}` };
    }
  };

  return {
    log,
    apply,
    /** The stop a person asked for, if any (a call waiting for approval is refused then). */
    stopRequested: () => stopRequest,
    /**
     * Before a handover: applies what is queued and lets every update handler finish, so no
     * request is lost between two runs.
     */
    async settle(ctx: SearchContext): Promise<void> {
      for (;;) {
        await apply(ctx);
        if (allHandlersFinished()) return;
        await condition(() => allHandlersFinished() || rewinds.size > 0);
      }
    },
    finish(reason: string): void {
      finished = reason;
      rewinds.refuseAll(reason);
    },
  };
}
