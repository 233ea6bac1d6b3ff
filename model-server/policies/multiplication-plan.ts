/**
 * The Saplings quickstart task (seed 004) as data: "Let x = 9418.343 * 8.11 and y = 2x.
 * Calculate (xy)(x^2)." WHY exported: the `multiplier` policy follows this plan, and tests and
 * evaluators reuse it to know the correct number at every step.
 */
import { numbersIn } from './conversation';

export type StepKey = 'x' | 'y' | 'xy' | 'x2' | 'result';
/** Steps in the order the multiplier performs them; each depends only on earlier ones. */
export const STEP_ORDER: readonly StepKey[] = ['x', 'y', 'xy', 'x2', 'result'];

export interface MultiplicationTask {
  /** x = a * b */
  a: number;
  b: number;
  /** y = k * x */
  k: number;
}

export const QUICKSTART_TASK: MultiplicationTask = { a: 9418.343, b: 8.11, k: 2 };

export interface MultiplicationStep {
  key: StepKey;
  a: number;
  b: number;
  /** a * b, computed in JavaScript doubles like a `multiply` tool would. */
  value: number;
}

export interface MultiplicationPlan {
  task: MultiplicationTask;
  steps: MultiplicationStep[];
  /** The final answer (xy)(x^2). */
  answer: number;
}

/**
 * Reads "x = A * B" and "y = Kx" from a prompt; missing parts default to the quickstart's.
 *
 * @example
 * parseMultiplicationTask('Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).') // { a: 9418.343, b: 8.11, k: 2 }
 */
export function parseMultiplicationTask(text: string): MultiplicationTask {
  const x = /\bx\s*=\s*(-?\d+(?:\.\d+)?)\s*[*\u00d7x]\s*(-?\d+(?:\.\d+)?)/i.exec(text);
  const y = /\by\s*=\s*(-?\d+(?:\.\d+)?)\s*\*?\s*x\b/i.exec(text);
  return {
    a: x ? Number(x[1]) : QUICKSTART_TASK.a,
    b: x ? Number(x[2]) : QUICKSTART_TASK.b,
    k: y ? Number(y[1]) : QUICKSTART_TASK.k,
  };
}

/**
 * Operands of a step given the values obtained so far (undefined while a dependency is missing).
 *
 * @example
 * stepOperands('y', { x: 3 }, QUICKSTART_TASK) // [2, 3]
 */
export function stepOperands(
  key: StepKey,
  values: Partial<Record<StepKey, number>>,
  task: MultiplicationTask,
): [number, number] | undefined {
  const pair = (p: number | undefined, q: number | undefined): [number, number] | undefined =>
    p === undefined || q === undefined ? undefined : [p, q];
  switch (key) {
    case 'x':
      return [task.a, task.b];
    case 'y':
      return pair(task.k, values.x);
    case 'xy':
      return pair(values.x, values.y);
    case 'x2':
      return pair(values.x, values.x);
    case 'result':
      return pair(values.xy, values.x2);
  }
}

/**
 * The correct numbers per step.
 *
 * @example
 * const plan = multiplicationPlan();
 * plan.steps[0] // { key: 'x', a: 9418.343, b: 8.11, value: 9418.343 * 8.11 }
 * plan.answer === plan.steps[4].value // true
 */
export function multiplicationPlan(task: MultiplicationTask = QUICKSTART_TASK): MultiplicationPlan {
  const values: Partial<Record<StepKey, number>> = {};
  const steps: MultiplicationStep[] = [];
  for (const key of STEP_ORDER) {
    const [a, b] = stepOperands(key, values, task)!;
    values[key] = a * b;
    steps.push({ key, a, b, value: a * b });
  }
  return { task, steps, answer: values.result! };
}

/**
 * True when two numbers agree to a relative 1e-9 (tool results may be printed rounded).
 *
 * @example
 * sameNumber(0.1 + 0.2, 0.3) // true
 */
export function sameNumber(p: number, q: number): boolean {
  return Math.abs(p - q) <= 1e-9 * Math.max(1, Math.abs(p), Math.abs(q));
}

/**
 * The number a tool message reports: a bare number, JSON with result/value/answer/output, or
 * the last number of a text like "2 * 3 = 6". Texts that look like errors give undefined.
 *
 * @example
 * toolResultNumber('9418.343 * 8.11 = 76382.76173') // 76382.76173
 * toolResultNumber('Error: missing argument b') // undefined
 */
export function toolResultNumber(text: string): number | undefined {
  const t = text.trim();
  if (/error|invalid|unknown|not found|exception|failed|missing|traceback/i.test(t)) return undefined;
  try {
    const j: unknown = JSON.parse(t);
    if (typeof j === 'number') return j;
    if (j && typeof j === 'object') {
      for (const k of ['result', 'value', 'answer', 'output']) {
        const v = (j as Record<string, unknown>)[k];
        if (typeof v === 'number') return v;
      }
    }
  } catch {
    // not JSON: fall through to the text scan
  }
  const nums = numbersIn(t);
  return nums.length > 0 ? nums[nums.length - 1] : undefined;
}
