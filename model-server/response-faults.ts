import type http from 'node:http';
import { sendError } from './http-io';
import { faultError } from './openai-errors';
import type { ServerContext } from './server-context';
import type { FaultTarget } from './fault-book';
import type { RequestTicket } from './stats-recorder';
import type { FaultAction, RequestOutcome } from './types';

/** Status logged for a request whose client went away (nginx's "client closed request"). */
export const ABORTED_STATUS = 499;
const DEFAULT_MALFORMED_BODY = 'this is not JSON {';

/** Resolves true after `ms`, or false as soon as the client goes away or the server closes. */
export function wait(ctx: ServerContext, ms: number, res: http.ServerResponse): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (res.destroyed || ctx.closing) return resolve(false);
    const onClose = () => {
      clearTimeout(timer);
      ctx.timers.delete(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      res.off('close', onClose);
      resolve(!res.destroyed && !ctx.closing);
    }, ms);
    ctx.timers.add(timer);
    res.once('close', onClose);
  });
}

/** Wires a ticket to the response's fate: finished -> `outcome`, closed early -> aborted. */
export function track(ctx: ServerContext, res: http.ServerResponse, ticket: RequestTicket): { outcome: RequestOutcome; streamed?: boolean } {
  const state: { outcome: RequestOutcome; streamed?: boolean } = { outcome: 'failed' };
  const closed = new Promise<void>((resolve) => {
    res.once('close', () => {
      if (!res.writableFinished) ticket.finish(ABORTED_STATUS, 'aborted');
      ctx.open.delete(closed);
      resolve();
    });
  });
  ctx.open.add(closed);
  res.once('finish', () => ticket.finish(res.statusCode, state.outcome, state.streamed));
  return state;
}

/** Applies a fault: 'handled' when the fault answered (or will never answer) the request. */
async function applyFault(ctx: ServerContext, action: FaultAction | undefined, res: http.ServerResponse): Promise<'continue' | 'handled'> {
  if (!action) return 'continue';
  switch (action.kind) {
    case 'status':
      sendError(res, faultError(action.status, action));
      return 'handled';
    case 'malformed': {
      const body = action.body ?? DEFAULT_MALFORMED_BODY;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return 'handled';
    }
    case 'hang':
      return 'handled';
    case 'latency':
      return (await wait(ctx, action.ms, res)) ? 'continue' : 'handled';
  }
}

/**
 * What the server was told to do to a request before it answers: hold it (until released, or its
 * client goes), then apply the first fault that matches it. True when the request goes on to be
 * answered normally.
 */
export async function passHoldsAndFaults(ctx: ServerContext, target: FaultTarget, res: http.ServerResponse): Promise<boolean> {
  if (!(await ctx.gate.pass(target, res))) return false;
  return (await applyFault(ctx, ctx.faults.take(target), res)) === 'continue';
}
