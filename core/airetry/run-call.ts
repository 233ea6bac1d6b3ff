import type { ConversationDelta } from '../conversation/delta';
import { CallStateError } from '../errors';
import type { ChatActivityResult } from '../schemas/llm-call';
import type { ConversationRefs } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import type { ChatParams } from '../schemas/chat-params';
import type { Usage } from '../schemas/messages';
import type { RetryConfig } from '../schemas/retry-config';
import type { SampleTree } from '../tree/sample-tree';
import { describeError, type AICallPort, type CallError } from './ports';
import { mapLimit } from '../agents/map-limit';

/** What a run reads and writes of its AI call (an `AICall` has it all). */
export interface RunnableCall {
  readonly samples: SampleTree<ConversationDelta>;
  readonly refs: ConversationRefs;
  readonly parser: { params?: ChatParams };
  readonly config: RetryConfig;
  model?: string;
  apiKwargs: ChatParams;
  activeSampleId: number;
  success?: boolean;
  error?: CallError;
  port?: AICallPort;
  /** How many model requests were sent. */
  requests: number;
  /** Samples whose answer stopped at the token limit (`finish_reason: length`): cut, not finished. */
  readonly cutSamples?: Set<number>;
  pathRef(sampleId: number): Ref;
  setPathRef(sampleId: number, ref: Ref): void;
  addUsage(usage: Usage): void;
}

export interface RunOptions {
  /**
   * What to send on top of the active sample's conversation (airetry's feedback). The new
   * samples become children of the active sample holding this delta plus their answer.
   */
  send?: ConversationDelta;
  /** Overrides `config.catchErrors` for this run. */
  catchErrors?: boolean;
}

/** How far each extra sample's temperature is nudged, so parallel samples differ (as the seeds do). */
export const TEMPERATURE_NUDGE = 1e-3;

/**
 * The seeds' `run!`: draws `config.nSamples` new samples from the active sample and makes the
 * last one active. Samples come `n` per request when `apiKwargs.n` is set, else one per
 * request, and the requests run in parallel. `calls` counts samples and never passes
 * `maxCalls`.
 *
 * Departures from the seeds, on purpose: the user's `apiKwargs.temperature` wins over
 * `config.temperature` and is really sent; `n` is capped so a round never exceeds `nSamples`
 * or `maxCalls`; samples that did arrive are kept even when a parallel request failed.
 *
 * @example
 * await runCall(call);                       // first samples from the prompt
 * await runCall(call, { send: feedbackDelta }); // a retry with feedback
 */
export async function runCall<C extends RunnableCall>(call: C, opts: RunOptions = {}): Promise<C> {
  const port = call.port;
  if (!port) throw new CallStateError('this AI call has no port to run on (create it inside a workflow, or give it a port)');
  const parent = call.samples.findNode(call.activeSampleId) ?? call.samples.root;
  const config = call.config;
  const wanted = Math.min(config.nSamples, config.maxCalls - config.calls);
  if (wanted <= 0) return call;

  const params = { ...(call.parser.params ?? {}), ...call.apiKwargs };
  const perRequest = Math.max(1, Math.min(params.n ?? 1, wanted));
  const requests = Math.ceil(wanted / perRequest);
  const baseTemperature = params.temperature ?? config.temperature;

  const send = opts.send;
  const sendPath = send && (send.add.length > 0 || send.keep !== undefined)
    ? call.refs.addPath(call.pathRef(parent.id), send.keep, send.add)
    : call.pathRef(parent.id);

  let firstId = call.samples.nextId;
  // At most MAX_PARALLEL_REQUESTS model calls in flight: a huge fan-out is sent in a sliding window
  // rather than as thousands of activities in one workflow task (Temporal refuses a task over 4 MB).
  const outcomes = await mapLimit(Array.from({ length: requests }, (_, i) => i), MAX_PARALLEL_REQUESTS, (i) => {
      const n = Math.min(perRequest, wanted - i * perRequest);
      const temperature = baseTemperature > 0 ? round9(baseTemperature + TEMPERATURE_NUDGE * (i + 1)) : baseTemperature;
      const ids = n === 1 ? `${firstId}` : `${firstId}-${firstId + n - 1}`;
      firstId += n;
      const runId = `r${call.requests++}`;
      return settle(
        port.chat(call.refs, sendPath, {
          model: call.model,
          params: { ...params, temperature, ...(n > 1 || params.n !== undefined ? { n } : {}) },
          runId,
          summary: `sample${n === 1 ? '' : 's'} ${ids} ← ${parent.id}${send?.add.length ? ' with feedback' : ''}`,
        }),
      );
    });

  let failure: unknown;
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') {
      failure ??= outcome.reason;
      continue;
    }
    addSamples(call, parent.id, sendPath, send, outcome.value);
  }
  if (failure !== undefined) {
    call.success = false;
    call.error = describeError(failure);
    if (!(opts.catchErrors ?? config.catchErrors)) throw failure;
  } else {
    call.success = true;
    call.error = undefined;
  }
  port.onSamples?.({ calls: config.calls, retries: config.retries, activeSampleId: call.activeSampleId });
  return call;
}

function addSamples(
  call: RunnableCall,
  parentId: number,
  sendPath: string,
  send: ConversationDelta | undefined,
  result: ChatActivityResult,
): void {
  call.addUsage(result.usage);
  call.refs.markRefsStored(result.choices.map((c) => c.ref));
  for (const choice of result.choices) {
    if (call.config.calls >= call.config.maxCalls) break;
    const delta: ConversationDelta = send
      ? { ...(send.keep !== undefined ? { keep: send.keep } : {}), add: [...send.add, choice.message] }
      : { add: [choice.message] };
    const child = call.samples.expand(parentId, delta, { success: true });
    if (choice.finishReason === 'length') call.cutSamples?.add(child.id);
    call.setPathRef(child.id, call.refs.addPath(sendPath, undefined, [choice.message]));
    call.config.calls += 1;
    call.activeSampleId = child.id;
  }
}

/** Keeps nudged temperatures free of float noise (0.7 + 0.001 = 0.701, not 0.7010000000000001). */
function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** Model calls of one round in flight at once. */
export const MAX_PARALLEL_REQUESTS = 64;

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}
