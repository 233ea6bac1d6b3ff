import { defineEvaluator, type EvaluatorOutput } from '../../activities/evaluators';
import { type Message, messageText } from '../../core/schemas/messages';
import { multiplicationPlan, parseMultiplicationTask, sameNumber, toolResultNumber } from '../../model-server';

/**
 * A custom evaluator for the Saplings quickstart task ("Let x = 9418.343 * 8.11 and y = 2x.
 * Calculate (xy)(x^2)."): instead of asking a model, it checks the numbers.
 *
 * Rule: the task comes from the first user message (`parseMultiplicationTask`). A step of the
 * plan (x, y, xy, x2, result) is done when a `multiply` tool RESULT (or an MCP server's,
 * `<server>__multiply`) equals its correct value
 * (relative 1e-9; `rawOutput` when it is a number, else the number in the tool message). The
 * final answer is the last call to a tool whose name contains "final" (its first argument), or
 * else the last assistant text "answer is N" / "answer: N".
 * - a correct final answer: 1 (solved);
 * - a wrong final answer: 0 (the trajectory ended wrong);
 * - no final answer yet: done steps / 6, so progress counts but never reaches a solution.
 *
 * @example
 * const activities = createEvaluatorActivities({ llm, store, evaluators: [multiplicationChecker] });
 * // a run then picks it with: evaluator: { name: 'multiplication-checker' }
 */
export const multiplicationChecker = defineEvaluator({
  name: 'multiplication-checker',
  // Pure arithmetic over the trajectory: cheap enough to run as a local activity.
  fast: true,
  run: (trajectory) => checkMultiplication(trajectory),
});

/**
 * @example
 * checkMultiplication([userMessage('Let x = 2 * 3 and y = 2x. Calculate (xy)(x^2).')])
 * // { score: 0, reasoning: 'Correct results: none. Missing: x, y, xy, x2, result. No final answer yet.' }
 */
export function checkMultiplication(trajectory: Message[]): EvaluatorOutput {
  const task = trajectory.find((m) => m.role === 'user');
  const plan = multiplicationPlan(parseMultiplicationTask(task ? messageText(task) : ''));

  const callNames = new Map<string, string>();
  const results: number[] = [];
  let finalAnswer: number | undefined;
  for (const m of trajectory) {
    if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) {
        callNames.set(call.id, call.function.name);
        if (/final/i.test(call.function.name)) finalAnswer = firstNumberArgument(call.function.arguments) ?? finalAnswer;
      }
      const said = [...messageText(m).matchAll(/answer(?:\s+is|\s*:)\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/gi)];
      if (said.length > 0) finalAnswer = Number(said[said.length - 1][1]);
    } else if (m.role === 'tool' && /^(?:multiply|.+__multiply)$/.test(callNames.get(m.tool_call_id) ?? '')) {
      const n = typeof m.rawOutput === 'number' ? m.rawOutput : toolResultNumber(m.content);
      if (n !== undefined) results.push(n);
    }
  }

  const done = plan.steps.filter((s) => results.some((r) => sameNumber(r, s.value))).map((s) => s.key);
  const missing = plan.steps.map((s) => s.key).filter((k) => !done.includes(k));
  const progress = `Correct results: ${done.length > 0 ? done.join(', ') : 'none'}.${missing.length > 0 ? ` Missing: ${missing.join(', ')}.` : ''}`;
  if (finalAnswer === undefined) return { score: done.length / (plan.steps.length + 1), reasoning: `${progress} No final answer yet.` };
  if (sameNumber(finalAnswer, plan.answer)) return { score: 1, reasoning: `The final answer ${finalAnswer} is correct.` };
  return { score: 0, reasoning: `${progress} The final answer ${finalAnswer} is wrong: it should be ${plan.answer}.` };
}

function firstNumberArgument(raw: string): number | undefined {
  try {
    const args: unknown = JSON.parse(raw);
    const v = args && typeof args === 'object' ? Object.values(args as Record<string, unknown>)[0] : args;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}
