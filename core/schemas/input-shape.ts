import { formatIssuePath } from './errors';

/**
 * Ceilings on the shape of a run's input, checked before a run starts (by the client) and when
 * it starts (by the workflow), whoever sent it. Deeper than `depth`, JSON is not a run's input
 * but an accident or an attack: V8's `JSON.stringify`, zod and Temporal's payload converter all
 * recurse, and overflow their stacks some thousands of levels down. The counts bound what one
 * run asks of every later step: each tool name becomes a tool spec in every model call (OpenAI
 * takes at most 128), each check runs on every answer, each message travels with the prompt.
 */
export const INPUT_LIMITS = {
  /** Levels of nesting in a run's input (an object or array is one level). */
  depth: 64,
  /** Tool names of an agent run, and tools in `apiKwargs.tools` (OpenAI's own limit). */
  tools: 128,
  /** Messages of a prompt conversation. */
  messages: 1000,
  /** airetry checks. */
  checks: 64,
  /** airetry `classify` choices. */
  choices: 256,
} as const;

/**
 * The first reason `value` cannot be a run's input as JSON — nested deeper than `maxDepth`, a
 * cycle, or a function, symbol or BigInt — naming the field; undefined when it is plain enough.
 * Iterative, so it answers at any depth (a 100,000-deep input included) where a recursive check
 * would overflow the stack.
 *
 * @example
 * inputShapeProblem({ evaluator: { options: deep } })
 * // 'evaluator.options.x.x.x.x.x.x…: nests more than 64 levels deep; send flatter JSON'
 */
export function inputShapeProblem(value: unknown, maxDepth: number = INPUT_LIMITS.depth): string | undefined {
  const leaf = leafProblem(value);
  if (leaf) return `(input): ${leaf}`;
  if (value === null || typeof value !== 'object') return undefined;
  const onPath = new Set<object>();
  const stack: { value: object; path: PropertyKey[]; exit?: true }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.exit) {
      onPath.delete(frame.value);
      continue;
    }
    onPath.add(frame.value);
    stack.push({ ...frame, exit: true });
    const entries: [PropertyKey, unknown][] = Array.isArray(frame.value) ? frame.value.map((v, i) => [i, v]) : Object.entries(frame.value);
    for (const [key, child] of entries) {
      const path = [...frame.path, key];
      const problem = leafProblem(child);
      if (problem) return `${fieldName(path)}: ${problem}`;
      if (child === null || typeof child !== 'object') continue;
      if (onPath.has(child)) return `${fieldName(path)}: it refers back to itself (a cycle is not JSON)`;
      if (path.length >= maxDepth) return `${fieldName(path)}: nests more than ${maxDepth} levels deep; send flatter JSON`;
      stack.push({ value: child, path });
    }
  }
  return undefined;
}

function leafProblem(value: unknown): string | undefined {
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value} is not JSON`;
  if (typeof value === 'bigint') return 'a BigInt is not JSON';
  return undefined;
}

/** The field's path, cut after 8 segments (a path as deep as the limit is unreadable whole). */
function fieldName(path: PropertyKey[]): string {
  const shown = formatIssuePath('', path.slice(0, 8)).replace(/^\./, '');
  return path.length > 8 ? `${shown}…` : shown;
}
