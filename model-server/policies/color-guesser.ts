/**
 * `color-guesser` policy: the color game of PromptingTools' airetry! docs (seed 001).
 *
 * The first user message lists the candidates ("It could be: blue, red, black, white,
 * yellow."; default: those five). Every "### Feedback from Evaluator" section in the
 * conversation (separate messages or appended in place) may teach it a constraint:
 * - "1 word" / "one word" / "single word" -> it answers with the bare color word;
 * - "lowercase" / "lower case" -> it answers in lowercase;
 * - `starts with "y"` -> it only picks colors starting with that letter;
 * - a feedback that says "not"/"wrong"/"incorrect" and names colors -> those colors are out.
 * Until a format constraint is known it breaks it at random with the choice's rng: with
 * probability `sentence` (option, default 0.5) it answers a sentence ("I think it is Blue."),
 * and with probability `capital` (option, default 0.7) it capitalises the color. The color is
 * uniform among the candidates still allowed. So each of the seeds' three checks (1 word,
 * lowercase, starts with "y") usually needs retries, and the game always converges.
 */
import type { ChatPolicy } from '../types';
import { pick } from '../rng';
import { feedbackTexts, firstUserText } from './conversation';

export const DEFAULT_COLORS = ['blue', 'red', 'black', 'white', 'yellow'];

/**
 * Candidate colors listed after "could be" (or "one of") in a prompt, lower-cased.
 *
 * @example
 * parseColorCandidates('Guess. It could be: blue, red or green. Answer') // ['blue', 'red', 'green']
 */
export function parseColorCandidates(prompt: string): string[] {
  const m = /(?:could be|one of)\s*:?\s*([^.\n]+)/i.exec(prompt);
  if (!m) return [...DEFAULT_COLORS];
  const words = m[1]
    .split(/,|\bor\b|\band\b/i)
    .map((w) => w.trim().toLowerCase())
    .filter((w) => /^[a-z][a-z -]*$/.test(w));
  return words.length > 0 ? words : [...DEFAULT_COLORS];
}

export interface ColorConstraints {
  oneWord: boolean;
  lowercase: boolean;
  /** Required first letter, lower-case. */
  startsWith?: string;
  /** Colors the feedback ruled out. */
  excluded: string[];
}

/**
 * What the feedback so far has taught the guesser.
 *
 * @example
 * colorConstraints(['You must answer in lowercase.', 'It starts with "y"'], ['blue', 'yellow'])
 * // { oneWord: false, lowercase: true, startsWith: 'y', excluded: [] }
 */
export function colorConstraints(feedback: readonly string[], candidates: readonly string[]): ColorConstraints {
  const c: ColorConstraints = { oneWord: false, lowercase: false, excluded: [] };
  for (const fb of feedback) {
    if (/\b(1|one|single)[ -]word\b/i.test(fb)) c.oneWord = true;
    if (/\blower[\s-]?case\b/i.test(fb)) c.lowercase = true;
    const s = /\bstarts?\s+with\s+(?:the\s+letter\s+)?["'\u201c\u201d\u2018\u2019]?([a-z])/i.exec(fb);
    if (s) c.startsWith = s[1].toLowerCase();
    if (/\b(not|wrong|incorrect|isn't)\b/i.test(fb)) {
      for (const color of candidates) {
        if (new RegExp(`\\b${color}\\b`, 'i').test(fb) && !c.excluded.includes(color)) c.excluded.push(color);
      }
    }
  }
  return c;
}

function probability(value: string | undefined, fallback: number): number {
  const p = value === undefined ? NaN : Number(value);
  return Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : fallback;
}

export const colorGuesserPolicy: ChatPolicy = {
  name: 'color-guesser',
  description: 'The color game: obeys "1 word", "lowercase" and "starts with" feedback, breaks unknown rules at random.',
  respond(req, ctx) {
    const candidates = parseColorCandidates(firstUserText(req));
    const c = colorConstraints(feedbackTexts(req), candidates);
    const pSentence = probability(ctx.options.sentence, 0.5);
    const pCapital = probability(ctx.options.capital, 0.7);
    const byLetter = c.startsWith ? candidates.filter((x) => x.startsWith(c.startsWith!)) : candidates;
    const allowed = byLetter.filter((x) => !c.excluded.includes(x));
    const pool = allowed.length > 0 ? allowed : byLetter.length > 0 ? byLetter : candidates;
    return Array.from({ length: ctx.n }, (_, i) => {
      const rng = ctx.rng(i);
      const color = pick(rng, pool);
      const capital = rng() < pCapital;
      const sentence = rng() < pSentence;
      const word = !c.lowercase && capital ? color[0].toUpperCase() + color.slice(1) : color;
      if (!c.oneWord && sentence) return { content: c.lowercase ? `i think it is ${word}.` : `I think it is ${word}.` };
      return { content: word };
    });
  },
};
