import { patched } from '@temporalio/workflow';
import type { z } from 'zod';
import { AICall } from '../../core/airetry/ai-call';
import { choiceOutput, jsonOutput, textOutput, type JsonOutputOptions, type OutputParser } from '../../core/airetry/output-parsers';
import type { AICallKind } from '../../core/airetry/ai-call';
import { classifyConversation } from '../../core/airetry/ready-made';
import type { ChatParams } from '../../core/schemas/chat-params';
import type { LlmSettingsInput } from '../../core/schemas/llm-settings';
import { userMessage, type ContentPart, type Message } from '../../core/schemas/messages';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import type { RetryConfigInput } from '../../core/schemas/retry-config';
import { workflowPort, workflowRng } from './workflow-port';
import { patchId } from '../patches';

/** Change id: extraction accepts ```json fences and quotes the schema in its feedback. */
const LENIENT_JSON = patchId('grove-lenient-json');

export interface AiOptions {
  model?: string;
  /** Model parameters, e.g. `{ n: 2, temperature: 0.2 }` (the seeds' `api_kwargs`). */
  apiKwargs?: ChatParams;
  /** Retry behaviour and budgets (the seeds' `RetryConfig`). */
  config?: RetryConfigInput;
  /** System message for a string prompt; default "Act as a helpful AI assistant", `null` for none. */
  system?: string | null;
  /** Seed for Thompson sampling, so a run is reproducible. */
  seed?: number;
  /** Timeouts and retry policy of the model activity. */
  llm?: LlmSettingsInput;
}

function lazyCall<T>(kind: AICallKind, prompt: Message[], parser: OutputParser<T>, opts: AiOptions): AICall<T> {
  return new AICall(prompt, {
    kind,
    parser,
    model: opts.model,
    apiKwargs: opts.apiKwargs,
    config: opts.config,
    port: workflowPort(opts.llm),
    rng: workflowRng(opts.seed),
  });
}

const conversationOf = (prompt: string | Message[], system: string | null | undefined) =>
  typeof prompt === 'string' ? promptConversation({ prompt, system }) : [...prompt];

/**
 * A lazy text generation (the seeds' `AIGenerate`), for use inside a workflow. Nothing is sent
 * until `run()`; each model call is then a durable activity.
 *
 * @example
 * const out = aiGenerate('Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
 *   { config: { nSamples: 2 }, apiKwargs: { n: 2 } });
 * await out.run();
 * await airetry((x) => lastOutput(x).split(/ |\./).length === 1, out, 'You must answer with 1 word only.');
 */
export function aiGenerate(prompt: string | Message[], opts: AiOptions = {}): AICall<string> {
  return lazyCall('generate', conversationOf(prompt, opts.system), textOutput, opts);
}

/**
 * A lazy structured extraction (the seeds' `AIExtract`): the zod schema is sent as a JSON
 * Schema, the answer is parsed and validated with it. A malformed answer is not an error:
 * `call.output` is undefined and `call.outputError` says what was wrong, ready to feed back.
 *
 * @example
 * const Food = z.object({ name: z.string(), adjectives: z.array(z.string()).optional() });
 * const food = aiExtract('I just ate a delicious and juicy apple.', Food, { model: 'food-extractor' });
 * await food.run();
 * await airetry((x) => x.outputError === undefined, food, (x) => `The output is not in the correct format: ${x.outputError}`);
 */
export function aiExtract<S extends z.ZodType>(
  prompt: string | Message[],
  schema: S,
  opts: AiOptions & JsonOutputOptions = {},
): AICall<z.output<S>> {
  // Fenced JSON accepted and the schema quoted in feedback; runs recorded before keep the strict parser.
  return lazyCall('extract', conversationOf(prompt, opts.system), jsonOutput(schema, { lenient: patched(LENIENT_JSON), ...opts }), opts);
}

/**
 * A lazy classification into fixed choices (the seeds' `AIClassify`), e.g. an LLM judge or a
 * router. The choices are listed in the prompt; the output is the choice the answer names.
 *
 * @example
 * const verdict = aiClassify('Is "yellow" a color?', ['yes', 'no'] as const);
 * await verdict.run();
 * verdict.output; // 'yes'
 */
export function aiClassify<C extends string>(prompt: string | Message[], choices: readonly C[], opts: AiOptions = {}): AICall<C> {
  return lazyCall('classify', classifyConversation(prompt, choices, opts.system), choiceOutput(choices), opts);
}

/**
 * A lazy call with images (the seeds' `AIScan`): image URLs (https or data URLs) go with the
 * prompt as image parts. Large data URLs travel into the message store once, then by reference.
 *
 * @example
 * const caption = aiScan('Describe this picture in one sentence.', ['https://example.com/cat.png'], { model: 'gpt-4o-mini' });
 */
export function aiScan(prompt: string, images: string[], opts: AiOptions & { detail?: 'auto' | 'low' | 'high' } = {}): AICall<string> {
  const parts: ContentPart[] = [
    { type: 'text', text: prompt },
    ...images.map((url): ContentPart => ({ type: 'image_url', image_url: opts.detail ? { url, detail: opts.detail } : { url } })),
  ];
  const conversation = promptConversation({ prompt, system: opts.system });
  conversation[conversation.length - 1] = userMessage(parts);
  return lazyCall('scan', conversation, textOutput, opts);
}
