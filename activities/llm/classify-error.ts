import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { LlmFailure } from '../../core/failures';
import { isValidationMessage } from './provider-compat';
import { activityContext, activityMaxRetryIntervalMs } from '../activity-context';

export { LlmFailure, NON_RETRYABLE_LLM_FAILURES } from '../../core/failures';

export interface CallContext {
  baseURL: string;
  model: string;
  /** Where the model name came from, named in a 404's hint (default: the run's `model` option or GROVE_MODEL on the workers). */
  modelSetting?: string;
  /** Longest retry delay a `Retry-After` may ask for (default: the current activity's `maximumInterval`). */
  maxRetryDelayMs?: number;
}

/**
 * Turns whatever the `openai` SDK threw into an `ApplicationFailure` with a stable type and
 * a message that says what to fix. 400/401/403/404/422, context-length and quota errors are
 * non-retryable; 429, 5xx, timeouts and network errors are retryable, and a `Retry-After`
 * header becomes the next retry delay, capped at the retry policy's maximum interval (the run's
 * `llm.maxRetryIntervalMs`): a provider asking for an hour must not park a run beyond what its
 * owner allowed.
 *
 * @example
 * try { await client.chat.completions.create(body) } catch (err) { throw classifyLlmError(err, ctx) }
 */
export function classifyLlmError(err: unknown, ctx: CallContext): ApplicationFailure | unknown {
  // Cancellation: the request was aborted because the run was cancelled. Temporal's worker reports
  // an activity cancelled only for its own CancelledFailure (the abort's reason), not the SDK's
  // abort error — which it would report as a failure, failing the run instead of cancelling it.
  if (err instanceof OpenAI.APIUserAbortError) return activityContext()?.cancellationSignal.reason ?? err;
  const where = `${ctx.baseURL} (model ${ctx.model})`;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return retryable(`the model endpoint at ${where} did not answer in time`, LlmFailure.Timeout, err);
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = describeCause(err);
    return retryable(
      `cannot reach the model endpoint at ${ctx.baseURL}${cause ? ` (${cause})` : ''}: check OPENAI_BASE_URL and that the server is running`,
      LlmFailure.Network,
      err,
    );
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    const detail = providerMessage(err);
    const code = err.code ?? '';
    if (status === 401) {
      return fatal(`the model endpoint at ${ctx.baseURL} rejected the API key (401: ${detail}): set OPENAI_API_KEY to a valid key for this endpoint`, LlmFailure.Auth, err);
    }
    if (status === 403) {
      return fatal(`the API key may not use model ${ctx.model} at ${ctx.baseURL} (403: ${detail}): check the key's permissions or pick another model`, LlmFailure.PermissionDenied, err);
    }
    if (status === 404) {
      return fatal(`model "${ctx.model}" was not found at ${ctx.baseURL} (404: ${detail}): check ${ctx.modelSetting ?? "the model name (the run's `model` option, or GROVE_MODEL on the workers)"} and OPENAI_BASE_URL`, LlmFailure.ModelNotFound, err);
    }
    if ((status === 400 || status === 413) && isContextLength(code, detail)) {
      const run = activityContext()?.info.workflowExecution?.workflowId;
      return fatal(
        `${run ? `run ${run}: ` : ''}the conversation is longer than model ${ctx.model} accepts (${detail}): set GROVE_CONTEXT_TOKENS on the workers to the model's window (grove then drops the oldest tool outputs first), lower max_tokens, shorten the prompt, or use a model with a larger context`,
        LlmFailure.ContextLength,
        err,
      );
    }
    if (status === 400 || status === 422 || status === 413) {
      return fatal(`the model endpoint at ${where} rejected the request (${status}: ${detail})${err.param ? `; parameter: ${err.param}` : ''}: check the call's options`, LlmFailure.BadRequest, err);
    }
    if (status === 429 && code === 'insufficient_quota') {
      return fatal(`the account behind OPENAI_API_KEY has no quota left at ${ctx.baseURL} (${detail}): add credit or use another key`, LlmFailure.QuotaExceeded, err);
    }
    if (status >= 500 && isValidationMessage(detail)) {
      // A validation error sent as 5xx (llama.cpp, FastAPI servers): the same request fails the same way.
      return fatal(`the model endpoint at ${where} rejected the request as invalid (${status}: ${detail}): check the call's options, or tell grove what this server refuses with GROVE_LLM_COMPAT`, LlmFailure.BadRequest, err);
    }
    const asked = retryAfterMs(err.headers);
    const cap = ctx.maxRetryDelayMs ?? activityMaxRetryIntervalMs();
    const delay = asked === undefined || cap === undefined ? asked : Math.min(asked, cap);
    if (status === 429) return retryable(`rate limited by ${where} (429: ${detail})`, LlmFailure.RateLimited, err, delay);
    return retryable(`the model endpoint at ${where} failed (${status || 'no status'}: ${detail})`, LlmFailure.ProviderError, err, delay);
  }
  if (err instanceof SyntaxError || (err instanceof Error && /JSON|Unexpected token/i.test(err.message))) {
    return retryable(`the model endpoint at ${where} sent a response that is not a valid completion (${err.message})`, LlmFailure.MalformedResponse, err);
  }
  return err;
}

function fatal(message: string, type: string, cause: Error): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable: true, cause });
}

function retryable(message: string, type: string, cause: Error, nextRetryDelayMs?: number): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable: false, cause, nextRetryDelay: nextRetryDelayMs });
}

function isContextLength(code: string, detail: string): boolean {
  return code === 'context_length_exceeded' || /context length|context window|maximum context|too many tokens|prompt is too long/i.test(detail);
}

function providerMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown } | undefined;
  const text = typeof body?.message === 'string' ? body.message : err.message;
  // The whole message (capped): a provider's validation error is multi-line and its cause is at the end.
  return text.replace(/^\d{3}\s+/, '').slice(0, 4_000);
}

function describeCause(err: Error): string {
  const cause = (err as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
  return cause?.code ?? cause?.cause?.code ?? cause?.message ?? '';
}

/** `Retry-After-Ms`, or `Retry-After` in seconds or as an HTTP date; undefined when absent or unparseable. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
