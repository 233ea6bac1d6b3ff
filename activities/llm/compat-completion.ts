import OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/common';
import { classifyLlmError, LlmFailure } from './classify-error';
import { MalformedStreamError, type PartialAnswer } from './stream-assembly';
import { StreamCutError, StreamIdleError, streamedCompletion } from './streamed-request';
import { adaptRequest, isValidationMessage, quirkFromRefusal, type ProviderCompat, type ProviderQuirks } from './provider-compat';
import type { ModelResponse, StepTelemetry } from '../telemetry/step-telemetry';

type Body = OpenAI.ChatCompletionCreateParamsNonStreaming;

export interface CompatOptions {
  baseURL: string;
  /** Where the model name came from, for the hint of a 404 (`evaluator.model`; default: the run's model or GROVE_MODEL). */
  modelSetting?: string;
  signal?: AbortSignal;
  callKey?: string;
  /** Traces the call (all its requests together) and counts its tokens, when the worker exports telemetry. */
  telemetry?: StepTelemetry;
  /**
   * Ask for the answer as a stream (`stream: true` with usage), unless the server was found not
   * to stream; it is assembled into the same completion. Default false.
   */
  stream?: boolean;
  /** With `stream`: the longest wait for the next chunk mid-answer (default 300 s, as GROVE_LLM_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** With `stream`: after each chunk, a view of every choice as it stands, by its index in the call's answer (read it when needed). */
  onProgress?: (current: () => Map<number, PartialAnswer>) => void;
}

/**
 * One chat completion from any OpenAI-compatible server: the request adapted to what the server
 * has refused before; a refusal that points at a known incompatibility (content null on tool-call
 * turns, json_schema, tool_choice "required") is remembered and the request sent again in the
 * accepted form, once per incompatibility; fewer choices than `n` are completed with parallel
 * single requests. With `stream`, the answer is asked for as a stream and assembled into the
 * same completion (`streamedCompletion`); a server that refuses streaming, ignores it or streams
 * without usage is remembered (`noStream`) and asked for whole answers. `notes` says what was
 * done, for the activity's result. Errors are classified (`classifyLlmError`) with the
 * provider's whole message.
 *
 * @example
 * const { response, notes } = await compatCompletion(client, compat, { model, messages, n: 3 }, { baseURL });
 * // notes: ['the server returned 1 choice for n=3', 'n=3 emulated by 3 requests']
 */
export function compatCompletion(client: OpenAI, compat: ProviderCompat, body: Body, opts: CompatOptions): Promise<{ response: OpenAI.ChatCompletion; notes: string[] }> {
  const call = () => completion(client, compat, body, opts);
  if (!opts.telemetry) return call();
  return opts.telemetry.modelCall({ operation: 'chat', model: body.model, baseURL: opts.baseURL, body: body as never }, call, ({ response }) => responseInfo(response));
}

async function completion(client: OpenAI, compat: ProviderCompat, body: Body, opts: CompatOptions): Promise<{ response: OpenAI.ChatCompletion; notes: string[] }> {
  const model = body.model;
  const quirks = compat.quirks(opts.baseURL, model);
  const notes: string[] = [];
  const wanted = body.n ?? 1;
  const single = (b: Body): Body => {
    const { n: _n, ...rest } = b;
    return rest as Body;
  };
  let response = await sendAdapted(client, quirks, notes, quirks.noN && wanted > 1 ? single(body) : body, opts);
  const got = response?.choices?.length ?? 0;
  if (wanted > 1 && got > 0 && got < wanted) {
    if (!quirks.noN) notes.push(`the server returned ${got} choice${got === 1 ? '' : 's'} for n=${wanted}`);
    quirks.noN = true;
    // The emulated choices stream as the call's choices got, got + 1, ...
    const shifted = (by: number): CompatOptions => ({ ...opts, onProgress: opts.onProgress && ((current) => opts.onProgress!(() => new Map([...current()].map(([i, a]) => [i + by, a])))) });
    const more = await Promise.all(
      Array.from({ length: wanted - got }, (_, i) => sendAdapted(client, quirks, notes, { ...single(body), ...(body.seed != null ? { seed: body.seed + got + i } : {}) }, shifted(got + i))),
    );
    notes.push(`n=${wanted} emulated by ${more.length + 1} requests`);
    response = {
      ...response,
      choices: [...response.choices, ...more.flatMap((r) => r.choices)].map((c, i) => ({ ...c, index: i })),
      usage: sumUsage([response, ...more].map((r) => r.usage)),
    };
  }
  return { response, notes };
}

async function sendAdapted(client: OpenAI, quirks: ProviderQuirks, notes: string[], body: Body, opts: CompatOptions): Promise<OpenAI.ChatCompletion> {
  const headers = opts.callKey ? { 'x-grove-call-key': opts.callKey } : undefined;
  for (;;) {
    const adapted = adaptRequest(body, quirks);
    const streamed = opts.stream === true && !quirks.noStream;
    try {
      if (!streamed) return await client.chat.completions.create(adapted, { signal: opts.signal, headers });
      const answer = await streamedCompletion(client, adapted, { signal: opts.signal, headers, idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_MS, onProgress: opts.onProgress });
      if (answer.kind === 'whole') {
        // The server ignored `stream`: its answer is whole and complete; later calls ask for it that way.
        quirks.noStream = true;
        notes.push('noStream: the server answered stream: true with a whole completion, so it is no longer asked to stream');
        return answer.response;
      }
      if (answer.hasUsage) return answer.response;
      // Without usage a call's tokens would go uncounted (budgets, cost): ask again, whole, once per endpoint.
      quirks.noStream = true;
      notes.push('noStream: the server streamed without usage (stream_options.include_usage), so the request was sent again without streaming, and it is no longer asked to stream');
    } catch (err) {
      const status = (err as { status?: number }).status;
      const message = err instanceof OpenAI.APIError ? providerText(err) : '';
      // A refusal: a 4xx about the request, or a 5xx whose body is a validation error (a transient
      // 5xx — overload, a crash — is retried by Temporal, never taken for an incompatibility).
      const refusal = status !== undefined && status >= 400 && ![401, 403, 404, 408, 409, 429].includes(status) && (status < 500 || isValidationMessage(message));
      const quirk = refusal ? quirkFromRefusal(message, adapted, quirks, streamed) : undefined;
      if (!quirk) throw streamFailure(err, opts.baseURL, body.model) ?? classifyLlmError(err, { baseURL: opts.baseURL, model: body.model, modelSetting: opts.modelSetting });
      quirks[quirk] = true;
      notes.push(`${quirk}: the server refused the request (${status}: ${message.split('\n')[0]!.slice(0, 120)}), so it was sent again adapted`);
    }
  }
}

/** How long a stream may go quiet mid-answer by default: GROVE_LLM_TIMEOUT_MS's default. */
const DEFAULT_IDLE_MS = 300_000;

/** A stream that failed after it began, as a retryable failure of grove's catalogue; undefined for any other error. */
function streamFailure(err: unknown, baseURL: string, model: string): ApplicationFailure | undefined {
  const where = `the model endpoint at ${baseURL} (model ${model})`;
  if (err instanceof StreamIdleError) return ApplicationFailure.create({ message: `${where} sent ${err.message}`, type: LlmFailure.Timeout, cause: err });
  if (err instanceof StreamCutError) return ApplicationFailure.create({ message: `${where}: ${err.message}`, type: LlmFailure.Network, cause: err });
  if (err instanceof MalformedStreamError) return ApplicationFailure.create({ message: `${where} sent a stream that is not a completion: ${err.message}`, type: LlmFailure.MalformedResponse, cause: err });
  return undefined;
}

function providerText(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : err.message;
}

function sumUsage(usages: Array<OpenAI.CompletionUsage | undefined>): OpenAI.CompletionUsage {
  const sum = (k: 'prompt_tokens' | 'completion_tokens' | 'total_tokens') => usages.reduce((a, u) => a + (u?.[k] ?? 0), 0);
  return { prompt_tokens: sum('prompt_tokens'), completion_tokens: sum('completion_tokens'), total_tokens: sum('total_tokens') };
}

/** What telemetry reads from a completion (the choices themselves only when it captures content). */
function responseInfo(response: OpenAI.ChatCompletion | undefined): ModelResponse {
  const choices = response?.choices ?? [];
  return {
    model: response?.model,
    id: response?.id,
    finishReasons: choices.map((c) => c.finish_reason ?? 'stop'),
    inputTokens: response?.usage?.prompt_tokens,
    outputTokens: response?.usage?.completion_tokens,
    choices: choices.map((c) => ({ message: c.message as never, finishReason: c.finish_reason ?? undefined })),
  };
}
