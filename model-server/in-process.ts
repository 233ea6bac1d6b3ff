/**
 * The scripted models without HTTP: the same validation, policies and answers as the server
 * (so a request gets the identical completion either way), for fast unit tests of code that
 * would otherwise need a server. No faults, no counters.
 */
import { buildCompletion, type ChatCompletionBody } from './completion';
import { planChunks, sseText } from './completion-chunks';
import { requestHash } from './hashing';
import { parseModelName } from './model-name';
import { BUILT_IN_POLICIES } from './policies';
import { checkChatRequest } from './request-checks';
import { chatRequestSchema } from './request-schema';
import { choiceSeedText, seededRng } from './rng';
import type OpenAI from 'openai';
import type { ChatPolicy } from './types';

/**
 * @example
 * const completion = completeInProcess({ model: 'multiplier', messages, tools, n: 3 });
 * completion.choices[0].message.tool_calls;
 */
export function completeInProcess(body: Record<string, unknown>, opts: { seed?: number; policies?: ChatPolicy[] } = {}): ChatCompletionBody {
  const chat = chatRequestSchema.parse(body);
  const { policy: name, options } = parseModelName(chat.model);
  const policy = [...(opts.policies ?? []), ...BUILT_IN_POLICIES].find((p) => p.name === name);
  if (!policy) throw new Error(`The model \`${chat.model}\` does not exist`);
  const problem = checkChatRequest(chat, { maxContextChars: 1_000_000, strictToolMessages: true });
  if (problem) throw new Error(problem.error.message);
  const hash = requestHash(body);
  const replies = policy.respond(chat, { n: chat.n ?? 1, options, rng: (i) => seededRng(choiceSeedText(opts.seed ?? 0, policy.name, hash, i)) });
  return buildCompletion(chat, hash, replies);
}

/**
 * An `openai` client whose answers come from the scripted models in this process, without
 * HTTP: for unit tests and benchmarks of the code above the wire. It records every request.
 * Like the SDK's, `create(...)` is a promise with `asResponse()`, the raw `Response`: server-sent
 * chunks for `stream: true` (as the server streams them), else the completion's JSON.
 *
 * @example
 * const client = inProcessOpenAI();
 * const activities = createGroveActivities({ llm, store, client });
 */
export function inProcessOpenAI(opts: { seed?: number; policies?: ChatPolicy[] } = {}): OpenAI & { requests: Record<string, unknown>[] } {
  const requests: Record<string, unknown>[] = [];
  const client = {
    requests,
    chat: {
      completions: {
        create: (body: Record<string, unknown>) => {
          requests.push(body);
          const completion = Promise.resolve().then(() => completeInProcess(body, opts));
          const asResponse = async () => {
            const c = await completion;
            if (body.stream !== true) return new Response(JSON.stringify(c), { headers: { 'content-type': 'application/json' } });
            const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
            return new Response(sseText(planChunks(c, { includeUsage }).map((p) => p.chunk)), { headers: { 'content-type': 'text/event-stream' } });
          };
          return Object.assign(completion, { asResponse });
        },
      },
    },
  };
  return client as unknown as OpenAI & { requests: Record<string, unknown>[] };
}
