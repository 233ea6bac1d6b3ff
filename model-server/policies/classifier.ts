/**
 * `classifier` policy: an LLM judge / router for aiClassify-style calls, driven by rules a
 * test controls.
 *
 * Choices: read from the system and user text (see {@link parseChoices}): a line
 * "Choices: a, b" / "Options: a | b" / "... one of: a, b" (comma, pipe or "or" separated), or a
 * "Choices:" / "Available Choices:" heading followed by list lines (`1. "a" for ...`,
 * `- b: ...`). `[judge:X]` markers are not part of the choices. Default: ["yes", "no"].
 *
 * Decision, for each choice of the completion (the first rule that applies):
 * 1. option `answer=X` -> X;
 * 2. a marker `[judge:X]` in any message (the last one wins), X one of the choices -> X;
 * 3. option `reject=w1,w2`: the judged text contains one of those words -> the second choice;
 * 4. option `accept=w1,w2`: the judged text contains one of those words -> the first choice,
 *    otherwise the second choice;
 * 5. otherwise the first choice.
 * The judged text is every message's text with the choice lines removed; words match whole
 * words, case-insensitively. Then with probability `p` (option, default 0) the answer is
 * replaced by a different choice picked with the choice's rng (a noisy judge).
 *
 * Output: the bare choice; json_object -> `{"choice":"X"}`; json_schema -> a schema instance
 * whose enum field containing X, or field named choice/label/answer/category/class, or first
 * string field holds X; a forced tool call -> the same object as arguments.
 */
import type { ChatPolicy, PolicyReply } from '../types';
import { allText, responseMode, responseSchema, textsByRole, toolMode, toolParameters } from './conversation';
import { schemaExample } from './json-schema-example';

const CHOICE_LINE = /^(.*?)(?:\bchoices|\boptions|\bone of)\s*:\s*(.*)$/i;

function cleanChoice(raw: string): string {
  return raw
    .trim()
    .replace(/^[-*\d.)\s]+/, '')
    .replace(/[.;]+$/, '')
    .replace(/^["'`\u201c]+|["'`\u201d]+$/g, '')
    .trim();
}

/**
 * The allowed answers stated in a text.
 *
 * @example
 * parseChoices('Is it safe? Answer with exactly one of: yes, no') // ['yes', 'no']
 * parseChoices('Choices:\n1. "A" for animals\n2. "P" for plants') // ['A', 'P']
 */
export function parseChoices(text: string): string[] {
  const lines = text.replace(/\[judge:[^\]]*\]/gi, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = CHOICE_LINE.exec(lines[i]);
    if (!m) continue;
    const inline = m[2].trim();
    if (inline) {
      const items = inline.split(/\s*(?:,|\||\bor\b)\s*/).map(cleanChoice).filter(Boolean);
      if (items.length > 0) return items;
    }
    const listed: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j].trim();
      if (!line || /^[-=]{3,}$/.test(line)) {
        if (listed.length > 0) break;
        continue;
      }
      const item = /^(?:\d+[.)]|[-*])\s*(?:"([^"]+)"|'([^']+)'|([^\s:]+))/.exec(line);
      if (!item) break;
      listed.push(cleanChoice(item[1] ?? item[2] ?? item[3]));
    }
    if (listed.length > 0) return listed;
  }
  return ['yes', 'no'];
}

function wordList(option: string | undefined): string[] {
  return (option ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
}

function containsWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`, 'i').test(text);
}

/**
 * The rule-based verdict before noise (rules 1-5 above).
 *
 * @example
 * classifyText('Is "hello" rude?', ['yes', 'no'], { accept: 'rude' }) // 'yes'
 */
export function classifyText(text: string, choices: readonly string[], options: Record<string, string>): string {
  const find = (x: string) => choices.find((c) => c.toLowerCase() === x.trim().toLowerCase());
  if (options.answer !== undefined) return find(options.answer) ?? options.answer;
  let marked: string | undefined;
  for (const m of text.matchAll(/\[judge:([^\]]+)\]/gi)) marked = find(m[1]) ?? marked;
  if (marked) return marked;
  const judged = text
    .split(/\r?\n/)
    .filter((l) => !CHOICE_LINE.test(l))
    .join('\n');
  const second = choices[1] ?? choices[0];
  if (wordList(options.reject).some((w) => containsWord(judged, w))) return second;
  if (options.accept !== undefined) return wordList(options.accept).some((w) => containsWord(judged, w)) ? choices[0] : second;
  return choices[0];
}

function structured(schema: unknown, answer: string): unknown {
  const s = schema as { properties?: Record<string, { enum?: unknown[]; type?: unknown }> } | undefined;
  const props = s?.properties ?? {};
  const names = Object.keys(props);
  const target =
    names.find((k) => Array.isArray(props[k].enum) && props[k].enum!.includes(answer)) ??
    names.find((k) => /^(choice|label|answer|category|class)$/i.test(k)) ??
    names.find((k) => props[k].type === 'string');
  if (!target) return { choice: answer };
  return schemaExample(schema, { [target]: answer });
}

export const classifierPolicy: ChatPolicy = {
  name: 'classifier',
  description: 'LLM judge / classifier: picks one of the stated choices by [judge:X] markers and accept/reject options.',
  respond(req, ctx) {
    const choices = parseChoices(textsByRole(req, ['system', 'developer', 'user']).join('\n'));
    const verdict = classifyText(allText(req), choices, ctx.options);
    const p = Number(ctx.options.p ?? 0);
    const tools = toolMode(req);
    return Array.from({ length: ctx.n }, (_, i): PolicyReply => {
      const rng = ctx.rng(i);
      let answer = verdict;
      const others = choices.filter((c) => c !== verdict);
      if (p > 0 && others.length > 0 && rng() < p) answer = others[Math.floor(rng() * others.length)];
      if (tools.choice === 'required' || typeof tools.choice === 'object') {
        const name = typeof tools.choice === 'object' ? tools.choice.name : tools.names[0];
        return { toolCalls: [{ name, arguments: structured(toolParameters(req, name), answer) }] };
      }
      const mode = responseMode(req);
      if (mode === 'json_object') return { content: JSON.stringify({ choice: answer }) };
      if (mode === 'json_schema') return { content: JSON.stringify(structured(responseSchema(req), answer)) };
      return { content: answer };
    });
  },
};
