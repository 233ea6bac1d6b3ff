import { messageRef, type PathRecord } from '../../hash/refs';
import { userMessage } from '../../schemas/messages';
import { traced } from '../../trace-span';
import { markWritten, refOf, trajectoryInput } from '../path-book';
import { spend, type CallBudget } from './budget-plan';
import type { SearchEnv } from './search-ops';

export const REFLECTION_SYSTEM_PROMPT =
  'You review a failed attempt of an AI agent that uses tools. Be concrete and brief.';
export const REFLECTION_INSTRUCTION =
  'This attempt did not solve the task. In at most two sentences, say what went wrong and what to do differently next time.';
const MAX_REFLECTIONS = 3;

/**
 * A LATS reflection on a failed terminal trajectory, not yet kept (parallel searches keep theirs
 * in a fixed order); '' when reflection is off or the budget has no call left for it. Its call
 * is reserved while it runs.
 *
 * @example
 * const text = await reflection(env, budget, 7);
 * if (text) keepReflection(env.state, text);
 */
export async function reflection(env: SearchEnv, budget: CallBudget, nodeId: number): Promise<string> {
  if (!env.options.reflection || budget.budgetStop(1)) return '';
  budget.reserved += 1;
  try {
    return await traced(env.port.startSpan?.('grove.reflect', { 'grove.node.id': nodeId }), () => reflectReserved(env, nodeId));
  } finally {
    budget.reserved -= 1;
  }
}

/**
 * Keeps a reflection for later expansions (the latest few).
 *
 * @example
 * keepReflection(state, 'Multiply before adding.');
 */
export function keepReflection(state: SearchEnv['state'], text: string): void {
  state.reflections = [...state.reflections, text].slice(-MAX_REFLECTIONS);
}

async function reflectReserved(env: SearchEnv, nodeId: number): Promise<string> {
  const { state, options } = env;
  const node = state.tree.node(nodeId);
  const instruction = userMessage(
    `${REFLECTION_INSTRUCTION}${node.data.reasoning ? `\nThe evaluator scored it ${fmt(node.score)} and said: ${node.data.reasoning}` : ''}`,
  );
  const record: PathRecord = { parent: refOf(state.tree, nodeId), add: [messageRef(instruction)] };
  const input = trajectoryInput(state.tree, nodeId, { record, messages: [instruction] });
  const result = await env.port.chat(
    { conversation: input, model: options.model, params: { temperature: 0.7, max_tokens: 300 }, system: REFLECTION_SYSTEM_PROMPT, runId: `reflect-n${nodeId}` },
    `reflect on n${nodeId} (score ${fmt(node.score)})`,
  );
  markWritten(state.tree, nodeId, input);
  state.counters.llmCalls += 1;
  state.counters.reflections += 1;
  spend(env, result.usage);
  return (result.choices[0]?.message.content ?? '').replace(/\s+/g, ' ').trim().slice(0, 500);
}

function fmt(score: number | undefined): string {
  return score === undefined ? '?' : score.toFixed(2);
}
