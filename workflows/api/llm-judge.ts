import type { AICall } from '../../core/airetry/ai-call';
import type { Condition } from '../../core/airetry/evaluate-condition';
import { messageText } from '../../core/schemas/messages';
import { aiClassify, type AiOptions } from './ai-calls';

export const JUDGE_SYSTEM_PROMPT =
  'You are a strict reviewer. Read the question and the text, then answer with exactly one of the choices and nothing else.';

export interface LlmJudgeOptions extends Pick<AiOptions, 'model' | 'apiKwargs' | 'llm'> {
  /** The verdicts the judge picks from; default `['yes', 'no']`. */
  choices?: readonly string[];
  /** The verdict that passes; default the first choice. */
  pass?: string;
}

/**
 * A check for `airetry` that asks a model (an `aiClassify` call, so a durable activity) whether
 * the active sample's answer satisfies `question`. The judge's token usage is added to the
 * checked call's usage; its calls do not count against the checked call's `maxCalls`.
 *
 * @example
 * await airetry(llmJudge('Is the answer polite?'), out, 'Please answer politely.');
 */
export function llmJudge<T>(question: string, opts: LlmJudgeOptions = {}): Condition<T> {
  const choices = opts.choices ?? ['yes', 'no'];
  const pass = opts.pass ?? choices[0];
  return async (call: AICall<T>) => {
    const answer = call.lastMessage;
    const text = answer ? messageText(answer) || JSON.stringify(answer.role === 'assistant' ? answer.tool_calls ?? null : null) : '';
    const judge = aiClassify(`Question: ${question}\n\nText:\n${text}`, choices, {
      model: opts.model ?? call.model,
      apiKwargs: { temperature: 0, ...opts.apiKwargs },
      system: JUDGE_SYSTEM_PROMPT,
      llm: opts.llm,
      config: { maxCalls: 1 },
    });
    await judge.run();
    call.addUsage(judge.usage);
    return judge.output === pass;
  };
}
