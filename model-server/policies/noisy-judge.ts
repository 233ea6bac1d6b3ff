/**
 * `noisy-judge` policy: an evaluator for the `multiplier` task that behaves like an LLM judge
 * would, for honest search-quality measurements (the `multiplier-judge` oracle recomputes every
 * step's exact value; no LLM can).
 *
 * What it sees is only the trajectory text: the task's numbers, the multiply calls, the tool
 * results, the final answer. It does no arithmetic of its own. It checks what a reader can:
 * - a multiply call is *grounded* when each operand is a number of the task (or 2, for "2x") or
 *   an earlier tool result; ungrounded calls (an operand from nowhere) cost 1.5 points each;
 * - progress is the grounded calls out of the 5 the task needs;
 * - a final answer that equals the last tool result "looks computed" (+1 point); one that
 *   appears nowhere in the results is suspicious (capped at 4) — except that, with probability
 *   `bias` (default 0.3), a confident final answer impresses it anyway (score 8);
 * - calibrated noise: Gaussian with `sigma` points (default 1.2); with probability `misread`
 *   (default 0.1) it misreads the trajectory and answers a uniform score.
 * Seeded per request and choice (the server's rng): deterministic for a given request.
 * Options in the model name: `noisy-judge?sigma=1.5&misread=0.1&bias=0.3`.
 */
import type { ChatPolicy, ChatRequest } from '../types';
import { messageText, numbersIn, toolMode } from './conversation';
import { sameNumber } from './multiplication-plan';

interface Verdict {
  score: number;
  reasoning: string;
}

/**
 * The judge's reading of a rendered (or chat-form) multiplication trajectory, before noise.
 *
 * @example
 * readTrajectory('[user] Let x = 2 * 3 ...\n[assistant] → multiply({"a":2,"b":3})\n[tool multiply] 6')
 * // { grounded: 1, ungrounded: 0, final: undefined, lastResult: 6 }
 */
export function readTrajectory(text: string): { grounded: number; ungrounded: number; final?: number; lastResult?: number } {
  const lines = text.split('\n');
  const task = lines.find((l) => /\bx\s*=/.test(l)) ?? lines[0] ?? '';
  const known: number[] = [...numbersIn(task), 2];
  let grounded = 0;
  let ungrounded = 0;
  let final: number | undefined;
  let lastResult: number | undefined;
  for (const line of lines) {
    const call = /→\s*(\w+)\((\{.*\})\)/.exec(line);
    if (call) {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(call[2]!) as Record<string, unknown>;
      } catch {
        ungrounded += 1;
        continue;
      }
      const values = Object.values(args).map(Number).filter((v) => Number.isFinite(v));
      if (/final/i.test(call[1]!)) final = values[0];
      else if (call[1] === 'multiply') {
        if (values.length === 2 && values.every((v) => known.some((k) => sameNumber(k, v)))) grounded += 1;
        else ungrounded += 1;
      }
      continue;
    }
    const result = /^\[tool multiply\]\s*(-?[\d.eE+-]+)/.exec(line);
    if (result) {
      lastResult = Number(result[1]);
      known.push(lastResult);
    }
    const said = /answer(?:\s+is|\s*:)\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/i.exec(line);
    if (said && line.startsWith('[assistant]')) final = Number(said[1]);
  }
  return { grounded, ungrounded, final, lastResult };
}

function verdictOf(req: ChatRequest, rng: () => number, opts: { sigma: number; misread: number; bias: number }): Verdict {
  const text = req.messages.filter((m) => m.role !== 'system').map(messageText).join('\n');
  const seen = readTrajectory(text);
  let points = (10 * Math.min(seen.grounded, 5)) / 6 - 1.5 * seen.ungrounded;
  let reasoning = `${seen.grounded} grounded multiplication${seen.grounded === 1 ? '' : 's'}, ${seen.ungrounded} with operands from nowhere.`;
  if (seen.final !== undefined) {
    const computed = seen.lastResult !== undefined && sameNumber(seen.final, seen.lastResult);
    if (computed) {
      points += 10 / 6;
      reasoning += ' The final answer is the last computed result.';
    } else if (rng() < opts.bias) {
      points = Math.max(points, 8);
      reasoning += ' The final answer is stated confidently.';
    } else {
      points = Math.min(points, 4);
      reasoning += ' The final answer does not come from the computations.';
    }
  }
  // Box–Muller from the seeded rng: calibrated noise.
  const noise = Math.sqrt(-2 * Math.log(Math.max(rng(), 1e-12))) * Math.cos(2 * Math.PI * rng()) * opts.sigma;
  let score = Math.round(Math.min(10, Math.max(0, points + noise)));
  if (rng() < opts.misread) {
    score = Math.floor(rng() * 11);
    reasoning += ' (misread)';
  }
  return { score, reasoning };
}

export const noisyJudgePolicy: ChatPolicy = {
  name: 'noisy-judge',
  description: 'An LLM-like evaluator for the multiplier task: reads the trajectory only, noisy, biased toward confident answers.',
  respond(req, ctx) {
    const opts = {
      sigma: Number(ctx.options.sigma ?? 1.2),
      misread: Number(ctx.options.misread ?? 0.1),
      bias: Number(ctx.options.bias ?? 0.3),
    };
    const tools = toolMode(req);
    const forced = typeof tools.choice === 'object' ? tools.choice.name : tools.choice === 'required' ? tools.names[0] : undefined;
    return Array.from({ length: ctx.n }, (_, i) => {
      const verdict = verdictOf(req, ctx.rng(i), opts);
      return forced ? { toolCalls: [{ name: forced, arguments: verdict }] } : { content: JSON.stringify(verdict) };
    });
  },
};
