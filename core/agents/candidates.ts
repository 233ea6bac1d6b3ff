import { canonicalJson } from '../hash/canonical-json';
import type { AssistantMessage } from '../schemas/messages';

/**
 * The candidates an expansion keeps from one `n`-sample call (Saplings' dedup, made
 * deterministic): text answers first, in the order they came, identical texts merged; then
 * tool-call messages grouped by their calls (names and arguments, argument keys sorted), the
 * most frequent group first, ties in first-seen order, each group represented by its first
 * message; cut to `bFactor`. Saplings kept texts in a set (arbitrary order, never merged) and
 * grouped by the first call only.
 *
 * @example
 * selectCandidates(choices.map((c) => c.message), 3);
 */
export function selectCandidates(messages: AssistantMessage[], bFactor: number): AssistantMessage[] {
  const texts = new Map<string, AssistantMessage>();
  const groups = new Map<string, { message: AssistantMessage; count: number; first: number }>();
  messages.forEach((message, index) => {
    if (!message.tool_calls?.length) {
      const key = message.content ?? '';
      if (!texts.has(key)) texts.set(key, message);
      return;
    }
    const key = callsKey(message);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { message, count: 1, first: index });
  });
  const ranked = [...groups.values()].sort((a, b) => b.count - a.count || a.first - b.first).map((g) => g.message);
  return [...texts.values(), ...ranked].slice(0, bFactor);
}

function callsKey(message: AssistantMessage): string {
  return JSON.stringify(
    (message.tool_calls ?? []).map((call) => {
      let args: string;
      try {
        args = canonicalJson(JSON.parse(call.function.arguments));
      } catch {
        args = call.function.arguments;
      }
      return [call.function.name, args];
    }),
  );
}
