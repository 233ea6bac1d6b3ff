import type { Message } from '../../core/schemas/messages';

export interface RenderOptions {
  /** About how many characters the whole rendering may take (default 24,000, ~6k tokens: fits small local models). */
  maxChars?: number;
  /** Longer messages (a huge tool output) lose their middle (default 4,000). */
  maxMessageChars?: number;
}

/**
 * Renders a tool-use trajectory as plain text, one block per message, for an evaluator model:
 *
 * ```text
 * [user] Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).
 * [assistant] → multiply({"a":9418.343,"b":8.11})
 * [tool multiply] 76382.76173
 * [assistant] The answer is 1.7838...e+19
 * ```
 *
 * WHY text rather than the chat messages themselves: every provider accepts one user message,
 * while assistant tool calls sent without `tools` (the evaluator offers none) are rejected by
 * some. Tool calls show their arguments as compact JSON, or verbatim with a note when they are
 * not valid JSON, so the evaluator can see broken calls. Tool results are labelled with the
 * name of the tool that was called (matched by `tool_call_id`). Images appear as `[image]`.
 *
 * Truncation (deterministic), when the blocks (joined by blank lines) exceed `maxChars`:
 * 1. every block longer than `maxMessageChars` keeps its first two thirds and its end, with
 *    `… [N characters omitted] …` between; the first user message (the task) may use up to
 *    half of `maxChars` instead;
 * 2. the first user message is always kept; then the most recent blocks are added, newest
 *    first, until one does not fit (the kept tail is contiguous: no step in its middle is
 *    dropped); if the whole tail fits, messages before the task (system) are added the same way;
 * 3. each run of dropped messages becomes one line `[… N messages omitted …]`.
 *
 * @example
 * renderTrajectory([userMessage('Say hi!'), assistantMessage('Hi!')]) // '[user] Say hi!\n\n[assistant] Hi!'
 */
export function renderTrajectory(messages: Message[], options: RenderOptions = {}): string {
  const maxChars = options.maxChars ?? 24_000;
  const maxMessageChars = options.maxMessageChars ?? 4_000;
  const toolNames = new Map<string, string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) toolNames.set(c.id, c.function.name);
  }
  const taskIndex = messages.findIndex((m) => m.role === 'user');
  const blocks = messages.map((m, i) =>
    cutMiddle(renderMessage(m, toolNames), i === taskIndex ? Math.max(maxMessageChars, Math.floor(maxChars / 2)) : maxMessageChars),
  );
  const size = (i: number) => blocks[i].length + SEPARATOR.length;
  if (blocks.reduce((sum, b) => sum + b.length + SEPARATOR.length, 0) <= maxChars + SEPARATOR.length) return blocks.join(SEPARATOR);

  const kept = new Set<number>();
  let used = 0;
  if (taskIndex >= 0) {
    kept.add(taskIndex);
    used += size(taskIndex);
  }
  let i = blocks.length - 1;
  for (; i > taskIndex; i--) {
    if (used + size(i) > maxChars) break;
    kept.add(i);
    used += size(i);
  }
  if (i === taskIndex) {
    for (let j = taskIndex - 1; j >= 0; j--) {
      if (used + size(j) > maxChars) break;
      kept.add(j);
      used += size(j);
    }
  }
  const out: string[] = [];
  let omitted = 0;
  for (let k = 0; k < blocks.length; k++) {
    if (!kept.has(k)) {
      omitted++;
      continue;
    }
    if (omitted > 0) out.push(omissionLine(omitted));
    omitted = 0;
    out.push(blocks[k]);
  }
  if (omitted > 0) out.push(omissionLine(omitted));
  return out.join(SEPARATOR);
}

const SEPARATOR = '\n\n';

function omissionLine(n: number): string {
  return `[… ${n} message${n === 1 ? '' : 's'} omitted …]`;
}

function renderMessage(m: Message, toolNames: Map<string, string>): string {
  switch (m.role) {
    case 'system':
      return `[system] ${m.content}`;
    case 'user': {
      const text =
        typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
      return `[user] ${text}`;
    }
    case 'assistant': {
      const lines: string[] = [];
      if (m.content) lines.push(`[assistant] ${m.content}`);
      if (m.refusal) lines.push(`[assistant refused] ${m.refusal}`);
      for (const call of m.tool_calls ?? []) lines.push(`[assistant] → ${renderCall(call.function.name, call.function.arguments)}`);
      return lines.length > 0 ? lines.join('\n') : '[assistant] (empty reply)';
    }
    case 'tool': {
      const name = toolNames.get(m.tool_call_id);
      return `[tool${name ? ` ${name}` : ''}] ${m.content}`;
    }
  }
}

function renderCall(name: string, raw: string): string {
  try {
    return `${name}(${JSON.stringify(JSON.parse(raw))})`;
  } catch {
    return `${name}(${raw}) [the arguments are not valid JSON]`;
  }
}

function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor((max * 2) / 3);
  const tail = Math.max(0, max - head);
  return `${text.slice(0, head)}… [${text.length - head - tail} characters omitted] …${tail > 0 ? text.slice(-tail) : ''}`;
}
