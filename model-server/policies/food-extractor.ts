/**
 * `food-extractor` policy: the aiExtract `Food` example of PromptingTools (seed 002).
 *
 * It reads the sentence (the last "Input: ..." line of the user text when there is one, as in
 * the seed's JSON-mode prompt; otherwise the first user message without feedback) and
 * extracts the food noun and its adjectives: "I just ate a delicious and juicy apple." ->
 * apple, [delicious, juicy] (see {@link extractFood}).
 *
 * Like the seed's small model, its first answer uses the WRONG key:
 * `{"food":"apple","adjectives":["delicious","juicy"]}`. Once any evaluator feedback in the
 * conversation mentions `name` (the seed's feedback: `The keys should be "name", "adjectives".`)
 * it answers `{"name":"apple","adjectives":["delicious","juicy"]}`.
 *
 * Output channel: when tools are offered (and tool_choice is not 'none') it makes one tool
 * call (the forced function, else a tool whose name mentions "extract" or "food", else the
 * first tool) whose arguments are that JSON; otherwise the JSON is the message content
 * (json_schema, json_object or plain text alike). The schema is not enforced. All choices are
 * the same.
 */
import type { ChatPolicy, PolicyReply } from '../types';
import { feedbackTexts, firstUserText, textsByRole, toolMode } from './conversation';

const FOODS = new Set(
  (
    'apple apples banana bananas bread pizza pasta soup salad sandwich burger cake cookie cookies orange oranges ' +
    'mango steak rice noodles taco tacos sushi cheese pie chocolate pear grape grapes cherry cherries carrot ' +
    'potato potatoes fries egg eggs yogurt curry donut bagel croissant muffin waffle pancake pancakes peach melon ' +
    'watermelon strawberry strawberries lemon tomato cucumber fish chicken burrito dumplings ramen omelette'
  ).split(' '),
);
/** Words that end the run of adjectives before the food (determiners, verbs, pronouns...). */
const STOPS = new Set(
  (
    'i you he she we they it me a an the some my your his her our their this that these those just ate eat eats ' +
    'eating had have has having love loved like liked is was am are were be been bought cooked made got for of ' +
    'with at in on to today yesterday tonight lunch dinner breakfast'
  ).split(' '),
);
/** Connectors and intensifiers skipped inside the run of adjectives. */
const SKIPS = new Set('and or but very really so quite too'.split(' '));

/**
 * The food noun and its adjectives in a sentence.
 *
 * @example
 * extractFood('I just ate a delicious and juicy apple.') // { name: 'apple', adjectives: ['delicious', 'juicy'] }
 * extractFood('I am eating a crunchy bread.') // { name: 'bread', adjectives: ['crunchy'] }
 */
export function extractFood(sentence: string): { name: string; adjectives: string[] } {
  const words = sentence.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? [];
  let at = -1;
  for (let i = words.length - 1; i >= 0 && at < 0; i--) if (FOODS.has(words[i])) at = i;
  for (let i = words.length - 1; i >= 0 && at < 0; i--) if (!STOPS.has(words[i]) && !SKIPS.has(words[i])) at = i;
  if (at < 0) return { name: '', adjectives: [] };
  const adjectives: string[] = [];
  for (let i = at - 1; i >= 0 && !STOPS.has(words[i]); i--) if (!SKIPS.has(words[i])) adjectives.unshift(words[i]);
  return { name: words[at], adjectives };
}

/**
 * The sentence to extract from: the last "Input:" line of the user text, else the first user
 * message without feedback.
 */
export function extractionInput(userTexts: readonly string[], fallback: string): string {
  let found: string | undefined;
  for (const t of userTexts) {
    for (const m of t.matchAll(/^\s*Input:\s*(.+)$/gim)) found = m[1];
  }
  return (found ?? fallback).trim().replace(/^["'\u201c]|["'\u201d]$/g, '');
}

export const foodExtractorPolicy: ChatPolicy = {
  name: 'food-extractor',
  description: 'aiExtract Food example: answers with the wrong key "food" until feedback mentions "name".',
  respond(req, ctx) {
    const sentence = extractionInput(textsByRole(req, ['user']), firstUserText(req));
    const food = extractFood(sentence);
    const fixed = feedbackTexts(req).some((fb) => /\bname\b/i.test(fb));
    const obj = fixed ? { name: food.name, adjectives: food.adjectives } : { food: food.name, adjectives: food.adjectives };
    const tools = toolMode(req);
    let reply: PolicyReply;
    if (tools.choice !== 'none') {
      const name =
        typeof tools.choice === 'object'
          ? tools.choice.name
          : (tools.names.find((n) => /extract|food/i.test(n)) ?? tools.names[0]);
      reply = { toolCalls: [{ name, arguments: obj }] };
    } else {
      reply = { content: JSON.stringify(obj) };
    }
    return Array.from({ length: ctx.n }, () => reply);
  },
};
