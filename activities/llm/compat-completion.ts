import OpenAI from 'openai';
import { classifyLlmError } from './classify-error';
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
}

/**
 * One chat completion from any OpenAI-compatible server: the request adapted to what the server
 * has refused before; a refusal that points at a known incompatibility (content null on tool-call
 * turns, json_schema, tool_choice "required") is remembered and the request sent again in the
 * accepted form, once per incompatibility; fewer choices than `n` are completed with parallel
 * single requests. `notes` says what was done, for the activity's result. Errors are classified
 * (`classifyLlmError`) with the provider's whole message.
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
    const more = await Promise.all(
      Array.from({ length: wanted - got }, (_, i) => sendAdapted(client, quirks, notes, { ...single(body), ...(body.seed != null ? { seed: body.seed + got + i } : {}) }, opts)),
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
  for (;;) {
    const adapted = adaptRequest(body, quirks);
    try {
      return await client.chat.completions.create(adapted, { signal: opts.signal, headers: opts.callKey ? { 'x-grove-call-key': opts.callKey } : undefined });
    } catch (err) {
      const status = (err as { status?: number }).status;
      const message = err instanceof OpenAI.APIError ? providerText(err) : '';
      // A refusal: a 4xx about the request, or a 5xx whose body is a validation error (a transient
      // 5xx — overload, a crash — is retried by Temporal, never taken for an incompatibility).
      const refusal = status !== undefined && status >= 400 && ![401, 403, 404, 408, 409, 429].includes(status) && (status < 500 || isValidationMessage(message));
      const quirk = refusal ? quirkFromRefusal(message, adapted, quirks) : undefined;
      if (!quirk) throw classifyLlmError(err, { baseURL: opts.baseURL, model: body.model, modelSetting: opts.modelSetting });
      quirks[quirk] = true;
      notes.push(`${quirk}: the server refused the request (${status}: ${message.split('\n')[0]!.slice(0, 120)}), so it was sent again adapted`);
    }
  }
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
