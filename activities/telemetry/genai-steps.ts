import { SpanKind, SpanStatusCode, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { activityContext } from '../activity-context';
import type { GroveInstruments } from './genai-metrics';
import { inputMessages, outputMessages, systemInstructions } from './genai-content';
import type { EvaluationOutcome, ModelRequest, ModelResponse, StepTelemetry, ToolOutcome, ToolRun } from './step-telemetry';
import { firstLine } from '../../core/first-line';

export interface GenAiStepsOptions {
  /** Absent when traces are off (metrics may still be on). */
  tracer?: Tracer;
  /** Absent when metrics are off. */
  instruments?: GroveInstruments;
  /** Record prompts, answers, tool arguments and results, and reasoning (opt-in). */
  captureContent: boolean;
}

/**
 * The activities' steps as spans and metrics with the OpenTelemetry GenAI semantic conventions
 * (v1.41.0): a model call is a `chat {model}` (or `embeddings {model}`) client span with
 * `gen_ai.operation.name`, `gen_ai.provider.name` (and the older `gen_ai.system`),
 * `gen_ai.request.*`, `gen_ai.response.*` and `gen_ai.usage.*`, timed by
 * `gen_ai.client.operation.duration` and counted by `gen_ai.client.token.usage`; a tool run is an
 * `execute_tool {tool}` span; an evaluation is an `evaluate {evaluator}` span with
 * `gen_ai.evaluation.*` and `grove.score`. Each carries `grove.run.id` (the workflow id). Content
 * — prompts, answers, tool arguments and results, reasoning — only with `captureContent`.
 *
 * @example
 * const steps = genAiSteps({ tracer, instruments, captureContent: false });
 * await steps.toolRun({ name: 'multiply', callId: 'call_1' }, () => run(), (r) => ({ isError: r.isError }));
 */
export function genAiSteps(opts: GenAiStepsOptions): StepTelemetry {
  const { tracer, instruments, captureContent } = opts;

  async function step<T>(name: string, kind: SpanKind, attributes: Attributes, run: () => Promise<T>, finish: (span: Span | undefined, result: T) => void, failed?: (err: unknown) => void): Promise<T> {
    if (!tracer) {
      try {
        const result = await run();
        finish(undefined, result);
        return result;
      } catch (err) {
        failed?.(err);
        throw err;
      }
    }
    return tracer.startActiveSpan(name, { kind, attributes: { ...attributes, ...runAttributes() } }, async (span) => {
      try {
        const result = await run();
        finish(span, result);
        return result;
      } catch (err) {
        span.setAttribute('error.type', errorType(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: firstLine(err instanceof Error ? err.message : String(err), 300) });
        failed?.(err);
        throw err;
      } finally {
        span.end();
      }
    });
  }

  return {
    modelCall(request, call, read) {
      const base = modelAttributes(request);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      const attributes: Attributes = { ...base, ...requestAttributes(request.body) };
      if (captureContent && request.body?.messages) {
        attributes['gen_ai.input.messages'] = inputMessages(request.body.messages);
        const system = systemInstructions(request.body.messages);
        if (system) attributes['gen_ai.system_instructions'] = system;
      }
      return step(
        `${request.operation} ${request.model}`,
        SpanKind.CLIENT,
        attributes,
        call,
        (span, result) => {
          const response = read(result);
          const answered = responseAttributes(response);
          if (captureContent && response.choices) answered['gen_ai.output.messages'] = outputMessages(response.choices);
          span?.setAttributes(answered);
          if (!instruments) return;
          const metric: Attributes = { ...base, ...(response.model ? { 'gen_ai.response.model': response.model } : {}) };
          instruments.operationDuration.record(seconds(), metric);
          if (response.inputTokens !== undefined) instruments.tokenUsage.record(response.inputTokens, { ...metric, 'gen_ai.token.type': 'input' });
          if (response.outputTokens !== undefined && request.operation === 'chat') instruments.tokenUsage.record(response.outputTokens, { ...metric, 'gen_ai.token.type': 'output' });
        },
        (err) => instruments?.operationDuration.record(seconds(), { ...base, 'error.type': errorType(err) }),
      );
    },

    toolRun<T>(tool: ToolRun, run: () => Promise<T>, read: (result: T) => ToolOutcome) {
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool.name,
        'gen_ai.tool.call.id': tool.callId,
        'gen_ai.tool.type': 'function',
        ...(tool.description ? { 'gen_ai.tool.description': tool.description } : {}),
        ...(captureContent && tool.arguments !== undefined ? { 'gen_ai.tool.call.arguments': tool.arguments } : {}),
      };
      return step(`execute_tool ${tool.name}`, SpanKind.INTERNAL, attributes, run, (span, result) => {
        const outcome = read(result);
        if (!span) return;
        if (captureContent && outcome.content !== undefined) span.setAttribute('gen_ai.tool.call.result', outcome.content);
        // The model is told of the error and may try again: the span says so, the run goes on.
        if (outcome.isError) {
          span.setAttribute('error.type', 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool call failed; the model was told why' });
        }
      });
    },

    evaluation<T>(evaluator: string, run: () => Promise<T>, read: (result: T) => EvaluationOutcome) {
      return step(`evaluate ${evaluator}`, SpanKind.INTERNAL, { 'gen_ai.evaluation.name': evaluator }, run, (span, result) => {
        const outcome = read(result);
        if (!span) return;
        const scored: Attributes = { 'gen_ai.evaluation.name': evaluator, 'gen_ai.evaluation.score.value': outcome.score };
        if (captureContent && outcome.reasoning) scored['gen_ai.evaluation.explanation'] = outcome.reasoning;
        span.setAttributes({ ...scored, 'grove.score': outcome.score });
        span.addEvent('gen_ai.evaluation.result', scored);
      });
    },
  };
}

/** The workflow (run) an activity works for. */
function runAttributes(): Attributes {
  const id = activityContext()?.info.workflowExecution?.workflowId;
  return id ? { 'grove.run.id': id } : {};
}

function modelAttributes(request: ModelRequest): Attributes {
  const server = serverOf(request.baseURL);
  const provider = providerOf(server.address);
  return {
    'gen_ai.operation.name': request.operation,
    'gen_ai.provider.name': provider,
    'gen_ai.system': provider,
    'gen_ai.request.model': request.model,
    ...(server.address ? { 'server.address': server.address } : {}),
    ...(server.port ? { 'server.port': server.port } : {}),
  };
}

const REQUEST_NUMBERS: Array<[string, string]> = [
  ['temperature', 'gen_ai.request.temperature'],
  ['top_p', 'gen_ai.request.top_p'],
  ['frequency_penalty', 'gen_ai.request.frequency_penalty'],
  ['presence_penalty', 'gen_ai.request.presence_penalty'],
  ['seed', 'gen_ai.request.seed'],
  ['max_tokens', 'gen_ai.request.max_tokens'],
  ['max_completion_tokens', 'gen_ai.request.max_tokens'],
];

function requestAttributes(body: ModelRequest['body']): Attributes {
  const out: Attributes = {};
  if (!body) return out;
  for (const [field, name] of REQUEST_NUMBERS) if (typeof body[field] === 'number') out[name] = body[field] as number;
  if (typeof body.n === 'number' && body.n !== 1) out['gen_ai.request.choice.count'] = body.n;
  if (typeof body.stop === 'string') out['gen_ai.request.stop_sequences'] = [body.stop];
  else if (Array.isArray(body.stop)) out['gen_ai.request.stop_sequences'] = body.stop.filter((s): s is string => typeof s === 'string');
  const format = (body.response_format as { type?: string } | undefined)?.type;
  if (body.messages) out['gen_ai.output.type'] = format === 'json_schema' || format === 'json_object' ? 'json' : 'text';
  return out;
}

function responseAttributes(response: ModelResponse): Attributes {
  const out: Attributes = {};
  if (response.model) out['gen_ai.response.model'] = response.model;
  if (response.id) out['gen_ai.response.id'] = response.id;
  if (response.finishReasons?.length) out['gen_ai.response.finish_reasons'] = response.finishReasons;
  if (response.inputTokens !== undefined) out['gen_ai.usage.input_tokens'] = response.inputTokens;
  if (response.outputTokens !== undefined) out['gen_ai.usage.output_tokens'] = response.outputTokens;
  return out;
}

function serverOf(baseURL: string): { address?: string; port?: number } {
  try {
    const url = new URL(baseURL);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { address: url.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return {};
  }
}

/** Well-known providers by host (the conventions' `gen_ai.provider.name` values); any other OpenAI-compatible server speaks `openai`. */
const PROVIDERS: Array<[RegExp, string]> = [
  [/(^|\.)openai\.azure\.com$/, 'azure.ai.openai'],
  [/(^|\.)services\.ai\.azure\.com$/, 'azure.ai.inference'],
  [/^generativelanguage\.googleapis\.com$/, 'gcp.gemini'],
  [/(^|\.)anthropic\.com$/, 'anthropic'],
  [/(^|\.)mistral\.ai$/, 'mistral_ai'],
  [/(^|\.)groq\.com$/, 'groq'],
  [/(^|\.)deepseek\.com$/, 'deepseek'],
  [/(^|\.)x\.ai$/, 'x_ai'],
  [/(^|\.)perplexity\.ai$/, 'perplexity'],
  [/(^|\.)cohere\.(ai|com)$/, 'cohere'],
];

function providerOf(host: string | undefined): string {
  return PROVIDERS.find(([pattern]) => host !== undefined && pattern.test(host))?.[1] ?? 'openai';
}

/** A failure's stable type: a Temporal failure type (`GroveRateLimited`...) or the error's name. */
function errorType(err: unknown): string {
  const type = (err as { type?: unknown })?.type;
  if (typeof type === 'string' && type !== '') return type;
  return err instanceof Error ? err.name : '_OTHER';
}
