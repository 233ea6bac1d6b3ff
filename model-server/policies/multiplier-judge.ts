/**
 * `multiplier-judge` policy: a Saplings-style LLM evaluator (seed 004, reference A2) for the
 * `multiplier` task. It answers `{"reasoning": "...", "score": 0-10}` like the evaluator's
 * strict json_schema asks, whatever the response_format (a forced tool call gets the same
 * object as arguments).
 *
 * Scoring: the task is read from the first user message that states it (else the whole
 * text); its plan has 6 milestones (x, y, xy, x2, result, the final answer). A step milestone
 * counts when its correct value appears among the numbers of the non-system messages and tool
 * call arguments (relative 1e-9); the final milestone counts when a final answer (a call to a
 * tool whose name contains "final", or a text "answer is N" / "answer: N") equals the plan's
 * answer. score = round(10 * milestones / 6); a final answer that is wrong caps the score at
 * 2. It works whether the trajectory arrives as real chat messages (assistant tool calls +
 * tool messages) or rendered as text in one user message. All choices are the same.
 */
import type { ChatPolicy, ChatRequest } from '../types';
import { messageText, numbersIn, toolCallsMade, toolMode } from './conversation';
import { multiplicationPlan, parseMultiplicationTask, sameNumber } from './multiplication-plan';

export interface TrajectoryScore {
  score: number;
  reasoning: string;
}

/**
 * Scores a multiplication trajectory (see the policy description).
 *
 * @example
 * judgeMultiplication(req) // { score: 3, reasoning: 'Correct so far: x, y. Missing: xy, x2, result, final answer.' }
 */
export function judgeMultiplication(req: ChatRequest): TrajectoryScore {
  const nonSystem = req.messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
  const taskText = nonSystem.map(messageText).find((t) => /\bx\s*=/.test(t)) ?? nonSystem.map(messageText).join('\n');
  const plan = multiplicationPlan(parseMultiplicationTask(taskText));
  const calls = toolCallsMade(req);
  const corpus = [...nonSystem.map(messageText), ...calls.map((c) => c.rawArguments)].join('\n');
  const nums = numbersIn(corpus);
  const done = plan.steps.filter((s) => nums.some((n) => sameNumber(n, s.value))).map((s) => s.key);

  let finalAnswer: number | undefined;
  for (const c of calls) {
    if (!/final/i.test(c.name) || !c.arguments || typeof c.arguments !== 'object') continue;
    const v = Object.values(c.arguments as Record<string, unknown>)[0];
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
    if (Number.isFinite(n)) finalAnswer = n;
  }
  for (const m of corpus.matchAll(/answer(?:\s+is|\\?["']?\s*:)\s*\\?["']?(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/gi)) {
    finalAnswer = Number(m[1]);
  }
  const finalOk = finalAnswer !== undefined && sameNumber(finalAnswer, plan.answer);
  const milestones = done.length + (finalOk ? 1 : 0);
  let score = Math.round((10 * milestones) / 6);
  if (finalAnswer !== undefined && !finalOk) score = Math.min(score, 2);
  const missing = [...plan.steps.map((s) => s.key).filter((k) => !done.includes(k)), ...(finalOk ? [] : ['final answer'])];
  const reasoning =
    `Correct so far: ${done.length > 0 ? done.join(', ') : 'nothing'}. ` +
    (finalAnswer !== undefined && !finalOk ? `The final answer ${finalAnswer} is wrong. ` : '') +
    (missing.length > 0 ? `Missing: ${missing.join(', ')}.` : 'The task is solved.');
  return { score, reasoning };
}

export const multiplierJudgePolicy: ChatPolicy = {
  name: 'multiplier-judge',
  description: 'Saplings-style evaluator for the multiplier task: {"reasoning","score" 0-10} from correct steps.',
  respond(req, ctx) {
    const verdict = judgeMultiplication(req);
    const tools = toolMode(req);
    const forced = typeof tools.choice === 'object' ? tools.choice.name : tools.choice === 'required' ? tools.names[0] : undefined;
    const reply = forced ? { toolCalls: [{ name: forced, arguments: verdict }] } : { content: JSON.stringify(verdict) };
    return Array.from({ length: ctx.n }, () => reply);
  },
};
