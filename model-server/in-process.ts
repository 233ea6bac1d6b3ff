/**
 * The scripted models without HTTP: the same validation, policies and answers as the server
 * (so a request gets the identical completion either way), for fast unit tests of code that
 * would otherwise need a server. No faults, no counters.
 */
import { buildCompletion, type ChatCompletionBody } from './completion';
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
        create: async (body: Record<string, unknown>) => {
          requests.push(body);
          return completeInProcess(body, opts);
        },
      },
    },
  };
  return client as unknown as OpenAI & { requests: Record<string, unknown>[] };
}
