import { CallStateError, RetryBudgetError } from '../errors';
import type { AICall } from './ai-call';
import { evaluateCondition, type Condition, type EvaluateOptions, type Feedback } from './evaluate-condition';
import { feedbackDelta } from './feedback-delta';
import { applyIntervention } from './interventions';
import { runCall } from './run-call';

export interface AiretryOptions extends EvaluateOptions {
  /** Log each failed round through the port (default true). */
  verbose?: boolean;
  /** Throw a RetryBudgetError when retries or calls run out (default false: stop quietly). */
  throw?: boolean;
  /** Defaults to `config.maxRetries`. Counted across airetry calls on the same call, as in the seeds. */
  maxRetries?: number;
  /** Defaults to `config.retryDelayMs`; in a workflow this is a durable timer. */
  retryDelayMs?: number;
}

/**
 * The seeds' `airetry!`: checks the call's samples; while the check fails, feeds back what was
 * wrong and retries from the most promising sample (UCT or Thompson over the sample tree),
 * until it passes or `maxRetries` / `maxCalls` run out. Returns the call, whose active sample is
 * the passing one (or the best one when none passed).
 *
 * Departures from the seeds: feedback goes into the new sample, never into the stored
 * conversation of the selected one (so no sample is fed the same feedback twice); in-place
 * feedback extends the prompt's own last user message with the feedback of the whole path
 * (the original re-extended an already extended message, repeating ancestors' feedback); and
 * `throw: true` really throws the budget error.
 *
 * @example
 * await call.run();
 * await airetry((x) => lastOutput(x).split(/ |\./).length === 1, call, 'You must answer with 1 word only.');
 */
export async function airetry<T>(
  condition: Condition<T>,
  call: AICall<T>,
  feedback: Feedback<T> = '',
  opts: AiretryOptions = {},
): Promise<AICall<T>> {
  if (call.success === undefined) throw new CallStateError('airetry needs a call that has run: call `await call.run()` first');
  const config = call.config;
  const maxRetries = opts.maxRetries ?? config.maxRetries;
  const delay = opts.retryDelayMs ?? config.retryDelayMs;
  const verbose = opts.verbose ?? true;
  for (;;) {
    // What a person asked meanwhile (a rewind, feedback) is applied between rounds.
    await call.steering.drain((request) => applyIntervention(call, request));
    if (call.stopped) {
      // A person stopped the call: the active sample has not passed this round.
      call.success = false;
      return call;
    }
    const { passed, sampleId } = await evaluateCondition(call, condition, feedback, opts);
    call.activeSampleId = sampleId;
    call.success = passed;
    if (passed) return call;
    if (config.calls >= config.maxCalls || config.retries >= maxRetries) {
      const message = `Maximum retry budget reached (Retries: ${config.retries}/${maxRetries}, Calls: ${config.calls}/${config.maxCalls}).`;
      if (opts.throw) throw new RetryBudgetError(message);
      if (verbose) call.port?.log?.(message);
      return call;
    }
    if (verbose) call.port?.log?.(`Condition not met. Retrying from sample ${sampleId}...`);
    if (delay > 0) await call.port?.sleep(delay);
    config.retries += 1;
    await runCall(call, { send: feedbackDelta(call, sampleId) });
  }
}
